import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Dispatch, ReactNode } from 'react';
import type { RuleCatalog } from '../types';
import type { EditorAction } from './draft-reducer';
import type { DraftRule } from './model';
import type { RuleProblems } from './placement';
import { RuleBlock } from './RuleBlock';
import type { DragHandle } from './RuleHeader';

/** The rules in the order they run; each one moves by its buttons, or by its handle with mouse or keyboard. */
export function RuleList({
  rules,
  catalog,
  problemsOf,
  dispatch,
}: {
  rules: DraftRule[];
  catalog: RuleCatalog;
  problemsOf(index: number): RuleProblems;
  dispatch: Dispatch<EditorAction>;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) dispatch({ type: 'dropRule', rule: String(active.id), onto: String(over.id) });
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements: announcements(rules) }}
    >
      <SortableContext items={rules.map((r) => r.key)} strategy={verticalListSortingStrategy}>
        <ol className="rules" aria-label="Rules, in the order they run">
          {rules.map((rule, index) => (
            <SortableRule key={rule.key} id={rule.key}>
              {(handle) => (
                <RuleBlock
                  rule={rule}
                  index={index}
                  count={rules.length}
                  catalog={catalog}
                  problems={problemsOf(index)}
                  handle={handle}
                  dispatch={dispatch}
                />
              )}
            </SortableRule>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

/** A list item dnd-kit can move, handing its drag handle to the rule inside. */
function SortableRule({ id, children }: { id: string; children(handle: DragHandle): ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? 'dragging' : undefined}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      {children({ attributes, listeners, setActivatorNodeRef })}
    </li>
  );
}

type Moving = { active: { id: UniqueIdentifier }; over: { id: UniqueIdentifier } | null };

/** Screen-reader sentences for keyboard drags, by rule position rather than internal keys. */
function announcements(rules: DraftRule[]) {
  const position = (id: UniqueIdentifier) => rules.findIndex((r) => r.key === id) + 1;
  return {
    onDragStart: ({ active }: Pick<Moving, 'active'>) => `Picked up rule ${position(active.id)}.`,
    onDragOver: ({ active, over }: Moving) =>
      over
        ? `Rule ${position(active.id)} is over position ${position(over.id)}.`
        : `Rule ${position(active.id)} is not over a position.`,
    onDragEnd: ({ active, over }: Moving) =>
      over
        ? `Rule ${position(active.id)} dropped at position ${position(over.id)}.`
        : `Rule ${position(active.id)} dropped.`,
    onDragCancel: ({ active }: Pick<Moving, 'active'>) => `Moving rule ${position(active.id)} was cancelled.`,
  };
}
