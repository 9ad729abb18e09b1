// A small XML reader for vendor metadata (CZI metadata, QPTIFF page descriptions): elements, attributes, text.
// Quirks: no DTDs, namespaces kept in names, entities limited to the five predefined and numeric ones; it
// is lenient (unclosed tags close at their parent's end) because vendor XML is sometimes sloppy.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text directly inside this element, entities decoded, trimmed. */
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

/** Parses `xml` into its root element; returns an empty root named '' when there is none. */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const texts: string[][] = [[]];
  const tag =
    /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<[?!][^>]*>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  const attr = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    const top = stack[stack.length - 1];
    if (m[1] !== undefined) texts[texts.length - 1].push(m[1]);
    else if (m[6] !== undefined) texts[texts.length - 1].push(decode(m[6]));
    else if (m[2] !== undefined) {
      // Pop to the matching open element; a stray close tag is ignored.
      const at = stack.map((e) => e.name).lastIndexOf(m[2]);
      while (at > 0 && stack.length > at) {
        stack[stack.length - 1].text = texts.pop()!.join('').trim();
        stack.pop();
      }
    } else if (m[3] !== undefined) {
      const el: XmlElement = { name: m[3], attrs: {}, children: [], text: '' };
      for (let a = attr.exec(m[4]); a; a = attr.exec(m[4])) el.attrs[a[1]] = decode(a[2] ?? a[3] ?? '');
      top.children.push(el);
      if (m[5] !== '/') {
        stack.push(el);
        texts.push([]);
      }
    }
  }
  while (stack.length > 1) {
    stack[stack.length - 1].text = texts.pop()!.join('').trim();
    stack.pop();
  }
  return root.children[0] ?? root;
}

/** Direct children named `name`. */
export function kids(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** Follows a path of child names (first match at each step), e.g. child(root, 'Metadata', 'Scaling'). */
export function child(el: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let cur = el;
  for (const p of path) cur = cur?.children.find((c) => c.name === p);
  return cur;
}

/** All descendants named `name`, depth first. */
export function descendants(el: XmlElement | undefined, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el?.children ?? []) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}
