import { useEffect, useState } from 'react';

/**
 * A whole number between `min` and `max` that can be cleared and typed over: the text is the
 * merchant's while they type, a number in range is taken at once, and leaving the field puts
 * anything else back in range (clamping each keystroke made "8" typed into a cleared field 18).
 */
export function WholeNumberInput({
  id,
  value,
  min,
  max,
  onChange,
}: {
  id: string;
  value: number;
  min: number;
  max: number;
  onChange(next: number): void;
}) {
  const [text, setText] = useState(String(value));
  // A value changed from outside (another widget opened) replaces what the field shows.
  useEffect(() => {
    setText((shown) => (Number(shown) === value && shown !== '' ? shown : String(value)));
  }, [value]);
  const inRange = (n: number) => Number.isInteger(n) && n >= min && n <= max;
  return (
    <input
      id={id}
      type="number"
      min={min}
      max={max}
      step={1}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value !== '' && inRange(n)) onChange(n);
      }}
      onBlur={() => {
        const n = Math.min(max, Math.max(min, Math.round(Number(text)) || min));
        setText(String(n));
        if (n !== value) onChange(n);
      }}
    />
  );
}
