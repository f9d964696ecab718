import type { DraggableAttributes, DraggableSyntheticListeners } from '@dnd-kit/core';
import { useId, type Dispatch } from 'react';
import type { EditorAction } from './draft-reducer';
import type { DraftRule } from './model';

/** What dnd-kit hands the element that starts a drag. */
export interface DragHandle {
  attributes: DraggableAttributes;
  listeners: DraggableSyntheticListeners;
  setActivatorNodeRef(node: HTMLElement | null): void;
}

/** A rule's first line: drag handle, number, name, its two toggles, and move and delete buttons. */
export function RuleHeader({
  rule,
  index,
  count,
  handle,
  dispatch,
}: {
  rule: DraftRule;
  index: number;
  count: number;
  handle: DragHandle;
  dispatch: Dispatch<EditorAction>;
}) {
  const number = index + 1;
  const nameId = useId();
  const flag = (name: 'enabled' | 'exit_if_matched', label: string) => (
    <label className="toggle">
      <input
        type="checkbox"
        checked={rule[name]}
        onChange={(e) => dispatch({ type: 'setRuleFlag', rule: rule.key, flag: name, value: e.target.checked })}
      />{' '}
      <span className="visually-hidden">Rule {number} </span>
      {label}
    </label>
  );
  const moveTo = (to: number) => dispatch({ type: 'moveRule', rule: rule.key, to });
  return (
    <header className="rule-head">
      <button
        type="button"
        className="drag-handle"
        ref={handle.setActivatorNodeRef}
        {...handle.attributes}
        {...handle.listeners}
        aria-label={`Drag rule ${number} to reorder (Space to lift, arrows to move)`}
      >
        ⠿
      </button>
      <h3 className="rule-number">Rule {number}</h3>
      <label htmlFor={nameId} className="visually-hidden">
        Rule {number} name
      </label>
      <input
        id={nameId}
        className="rule-name"
        value={rule.name}
        placeholder="Name (optional)"
        onChange={(e) => dispatch({ type: 'renameRule', rule: rule.key, name: e.target.value })}
      />
      {flag('enabled', 'Enabled')}
      {flag('exit_if_matched', 'Exit if matched')}
      <span className="rule-actions">
        <button
          type="button"
          data-move="up"
          onClick={() => moveTo(index - 1)}
          disabled={index === 0}
          aria-label={`Move rule ${number} up`}
        >
          ↑
        </button>
        <button
          type="button"
          data-move="down"
          onClick={() => moveTo(index + 1)}
          disabled={index === count - 1}
          aria-label={`Move rule ${number} down`}
        >
          ↓
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => dispatch({ type: 'removeRule', rule: rule.key })}
          aria-label={`Delete rule ${number}`}
        >
          Delete
        </button>
      </span>
    </header>
  );
}
