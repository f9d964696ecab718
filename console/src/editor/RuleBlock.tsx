import type { Dispatch } from 'react';
import type { RuleCatalog } from '../types';
import type { EditorAction } from './draft-reducer';
import type { DraftRule } from './model';
import type { RuleProblems } from './placement';
import { Problems } from './Problems';
import { RuleConditions } from './RuleConditions';
import { RuleHeader, type DragHandle } from './RuleHeader';
import { RuleOutputs } from './RuleOutputs';

interface Props {
  rule: DraftRule;
  index: number;
  count: number;
  catalog: RuleCatalog;
  problems: RuleProblems;
  handle: DragHandle;
  dispatch: Dispatch<EditorAction>;
}

/** One rule: its header, IF / AND IF / OR IF condition rows, and RETURN / AND output rows. */
export function RuleBlock({ rule, index, count, catalog, problems, handle, dispatch }: Props) {
  const number = index + 1;
  return (
    <section
      className={`rule${rule.enabled ? '' : ' rule-disabled'}`}
      aria-label={`Rule ${number}`}
      data-rule={rule.key}
    >
      <RuleHeader rule={rule} index={index} count={count} handle={handle} dispatch={dispatch} />
      <Problems problems={problems.rule} />
      <RuleConditions rule={rule} number={number} catalog={catalog} problems={problems} dispatch={dispatch} />
      <RuleOutputs rule={rule} number={number} catalog={catalog} problems={problems} dispatch={dispatch} />
    </section>
  );
}
