// Stamps (size, mtime, ctime; worker-task.ts FileStamp) by index, in one Float64Array grown as
// needed: three numbers per file, not an object (a cold scan of a million files holds a million).
export class StampColumn {
  private values = new Float64Array(3 * 1024);

  set(index: number, size: number, mtimeMs: number, ctimeMs: number): void {
    const at = 3 * index;
    if (at + 3 > this.values.length) {
      let length = this.values.length;
      while (at + 3 > length) length *= 2;
      const grown = new Float64Array(length);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[at] = size;
    this.values[at + 1] = mtimeMs;
    this.values[at + 2] = ctimeMs;
  }

  size(index: number): number {
    return this.values[3 * index];
  }

  mtime(index: number): number {
    return this.values[3 * index + 1];
  }

  ctime(index: number): number {
    return this.values[3 * index + 2];
  }

  /** The stamp of `index` into `into`, from `at`. */
  copyInto(index: number, into: Float64Array, at: number): void {
    into[at] = this.values[3 * index];
    into[at + 1] = this.values[3 * index + 1];
    into[at + 2] = this.values[3 * index + 2];
  }
}
