// The MyST building blocks speky's generator writes (python/speky/generators/markdown.py:
// MarkdownWriter, MystEnvironment and its dropdown, toctree, card and code block), each
// producing the same characters: `:::{name} title`, its `:key: value` lines and a blank line
// when it has any, the body, then `:::`.

export const md = {
  bold: (text: string) => `__${text}__`,
  link: (text: string, target: string) => `[${text}](${target})`,
  literal: (text: string) => `\`${text}\``,
};

export class MystWriter {
  private readonly chunks: string[] = [];

  text(): string {
    return this.chunks.join("");
  }

  line(text: string): void {
    this.chunks.push(`${text}\n`);
  }

  empty(): void {
    this.chunks.push("\n");
  }

  heading(title: string, level: number): void {
    this.line(`${"#".repeat(level + 1)} ${title}`);
  }

  quote(lines: readonly string[]): void {
    for (const l of lines) this.line(`> ${l}`);
  }

  /** An environment: the opening line with its options, the body, the closing fence. */
  private environment(fence: string, opening: string, args: [string, string][], body: () => void): void {
    this.line(`${fence}${opening}`);
    if (args.length > 0) {
      for (const [key, value] of args) this.line(`:${key}: ${value}`);
      this.empty();
    }
    body();
    this.line(fence);
  }

  dropdown(title: string, color: string, opened: boolean, icon: string, body: () => void): void {
    const args: [string, string][] = [];
    if (opened) args.push(["open", ""]);
    args.push(["icon", icon], ["color", color]);
    this.environment(":::", `{dropdown}${title ? ` ${title}` : ""}`, args, body);
  }

  toctree(maxDepth: number, entries: readonly string[]): void {
    this.environment(":::", "{toctree}", [["maxdepth", String(maxDepth)]], () => {
      for (const entry of entries) this.line(entry);
    });
  }

  card(title: string, secondary: boolean, body: () => void): void {
    const args: [string, string][] = [["text-align", "left"]];
    if (secondary) args.push(["class-card", "sd-bg-secondary"]);
    this.environment(":::", `{card}${title ? ` ${title}` : ""}`, args, body);
  }

  codeBlock(language: string, body: () => void): void {
    this.environment("```", language, [], body);
  }
}
