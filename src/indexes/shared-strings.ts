/**
 * One copy of each vendor, product type, tag and list of tags a load repeats: parsed, each product
 * had its own (a shop's products share a dozen vendors and a few tags between them), about 150
 * bytes a product of every resident shop.
 */
export class SharedStrings {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, readonly string[]>();

  one(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  /** The list of `texts[start, end)`: an array is made only for a list not seen before. */
  listIn(texts: readonly string[], start: number, end: number): readonly string[] {
    // Tags are split at commas: joined with one, two lists cannot make the same key.
    let key = '';
    for (let i = start; i < end; i++) key = i === start ? texts[i]! : `${key},${texts[i]}`;
    const known = this.lists.get(key);
    if (known !== undefined) return known;
    const list = new Array<string>(end - start);
    for (let i = start; i < end; i++) list[i - start] = this.one(texts[i]!);
    this.lists.set(key, list);
    return list;
  }

  list(texts: readonly string[]): readonly string[] {
    return this.listIn(texts, 0, texts.length);
  }
}
