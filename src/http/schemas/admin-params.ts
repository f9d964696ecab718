import { params, param } from '../../domain/params/param.js';
import { isPositiveId, positiveId } from '../../domain/params/kinds.js';
import { invalid } from '../../domain/params/param.js';
import { text } from '../../domain/params/text-kinds.js';

const handle = text('the shop handle', { max: 100, required: true });

/** `/shops/{handle}`. */
export const HandlePath = params({ handle });

/** `/shops/{handle}/…/{id}`. */
export const HandleIdPath = params({ handle, id: positiveId('the id', { required: true }) });

/** A preview's ruleset: a stored id, or `new` (also 0) for an unsaved document. */
export const PreviewPath = params({
  handle,
  id: param(
    { description: 'the ruleset id, or new for an unsaved ruleset', required: true },
    {
      decode(raw, name) {
        const value = raw?.trim() ?? '';
        if (value === 'new' || value === '0') return null;
        if (!isPositiveId(value))
          throw invalid(name, `Parameter ${name} must be a positive integer id or new, got "${value.slice(0, 30)}".`);
        return Number(value);
      },
      key: (value: number | null) => (value === null ? 'new' : String(value)),
    },
  ),
});
