// Brace alternatives of a manifest glob, expanded before matching (bounded in number).

/** Brace alternatives of `p` (`a{b,c{d,e}}` → ab acd ace), or null past `limit`. */
export function expandBraces(p: string, limit: number): string[] | null {
  const out: string[] = [];
  const expand = (s: string): boolean => {
    let open = -1;
    let depth = 0;
    const commas: number[] = [];
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === "\\") i++;
      else if (c === "{") {
        if (depth++ === 0) {
          open = i;
          commas.length = 0;
        }
      } else if (c === "}" && depth > 0) {
        if (--depth === 0 && commas.length > 0) {
          const head = s.slice(0, open);
          const tail = s.slice(i + 1);
          const cuts = [open, ...commas, i];
          for (let k = 0; k + 1 < cuts.length; k++) if (!expand(head + s.slice(cuts[k] + 1, cuts[k + 1]) + tail)) return false;
          return true;
        }
      } else if (c === "," && depth === 1) commas.push(i);
    }
    out.push(s);
    return out.length <= limit;
  };
  return expand(p) ? out : null;
}
