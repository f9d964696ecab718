/** Characters a pattern may hold. */
export const MAX_PATTERN_TEXT = 500;

/**
 * A group's atoms as they are read: the alternatives closed so far, and the current one. RE2 merges
 * the alternatives that are one character each (`\pL|\pN|x`) into one class: they count one atom
 * in all. Others add up, though RE2 may factor out what they begin with alike (`abc|abd` is
 * `ab[cd]`): over-counting such a pattern near the bound refuses it, where under-counting a hostile
 * one (alternatives sharing a first group, which RE2 does not factor) would compile it.
 */
interface GroupAtoms {
  /** Atoms of the closed alternatives that are not one character. */
  others: number;
  /** Whether a closed alternative was one character (the merged class: one atom in all). */
  singles: boolean;
  /** Atoms of the current alternative, and how many items it holds so far. */
  atoms: number;
  items: number;
  /** Whether the current alternative is one character, unrepeated. */
  single: boolean;
}

const newGroup = (): GroupAtoms => ({ others: 0, singles: false, atoms: 0, items: 0, single: false });

/** Closes a group's current alternative. */
function closeAlternative(group: GroupAtoms): void {
  if (group.single) group.singles = true;
  else group.others += group.atoms;
  Object.assign(group, { atoms: 0, items: 0, single: false });
}

/** A group's atoms once its last alternative is closed. */
function groupTotal(group: GroupAtoms): number {
  closeAlternative(group);
  return group.others + (group.singles ? 1 : 0);
}

/**
 * A lower bound of the instructions a pattern compiles to, read from its text without compiling it:
 * the atoms RE2 emits once its counted repeats are expanded (`x{3}` is three copies of `x`, each an
 * instruction at least). Compiling is the costly part of a hostile pattern (`(\pL|\pN){1000}` thirty
 * times over in 480 characters compiles to 90,002 instructions in 137 ms); a text whose atoms alone
 * pass a bound is refused before it is compiled. An escape, a class or any other character counts
 * one, a group what it holds (its alternatives added up, those of one character once: RE2 makes
 * them one class), a quantifier multiplies what it follows.
 */
export function expandedAtoms(text: string): number {
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(text);
  const source = literal ? literal[1]! : text;
  const groups: GroupAtoms[] = [newGroup()];
  let last = 0;
  const top = () => groups[groups.length - 1]!;
  const add = (atoms: number, oneCharacter: boolean) => {
    const group = top();
    group.single = group.items === 0 && oneCharacter;
    group.atoms += atoms;
    group.items++;
    last = atoms;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\' && source[i + 1] === 'Q') {
      // `\Q…\E` quotes its characters: each is an atom, as if written escaped one by one (a quantifier
      // after it repeats the last).
      const end = source.indexOf('\\E', i + 2);
      const quoted = (end === -1 ? source.length : end) - (i + 2);
      top().atoms += Math.max(quoted - 1, 0);
      add(1, quoted === 1);
      if (quoted > 1) top().single = false;
      i = end === -1 ? source.length : end + 1;
    } else if (c === '\\') {
      i = escapeEnd(source, i);
      add(1, true);
    } else if (c === '[') {
      i = classEnd(source, i);
      add(1, true);
    } else if (c === '(') {
      // `(?:`, `(?P<name>`: the group's flags and name are not atoms; `(?i)` sets flags and holds nothing.
      const end = source[i + 1] === '?' ? source.slice(i).search(/[:)>]/) : -1;
      if (end === -1 || source[i + end] !== ')') groups.push(newGroup());
      if (end !== -1) i += end;
    } else if (c === ')') {
      const inner = groups.length > 1 ? groupTotal(groups.pop()!) : 0;
      add(Math.max(inner, 1), false);
    } else if (c === '|') {
      closeAlternative(top());
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(i, i + 12))) {
      const [whole, low, high] = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i, i + 12))!;
      const count = Math.max(Number(high || low), 1);
      top().atoms += last * (count - 1);
      top().single = false;
      last *= count;
      i += whole.length - 1;
    } else if (c === '*' || c === '+' || c === '?') {
      top().single = false;
    } else if (c !== '^' && c !== '$') add(1, true);
  }
  while (groups.length > 1) {
    const inner = groupTotal(groups.pop()!);
    top().atoms += inner;
  }
  return groupTotal(groups[0]!);
}

/** Where an escape ends: `\pL`, `\p{Greek}`, `\x{263a}` (each read as one atom). */
function escapeEnd(source: string, at: number): number {
  const next = source[at + 1];
  if ((next === 'p' || next === 'P' || next === 'x') && source[at + 2] === '{') return braceEnd(source, at + 2);
  if (next === 'p' || next === 'P') return at + 2;
  return at + 1;
}

function braceEnd(source: string, open: number): number {
  const close = source.indexOf('}', open);
  return close === -1 ? source.length : close;
}

/** Where a character class ends: `[^]…]`, `[[:alpha:]x]`, `[\]]`. */
function classEnd(source: string, open: number): number {
  let i = open + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '[' && source[i + 1] === ':') {
      const close = source.indexOf(':]', i + 2);
      if (close !== -1) i = close + 1;
    } else if (source[i] === ']') return i;
  }
  return source.length;
}
