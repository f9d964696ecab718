import type { RuleCatalog, Ruleset } from '../types';
import { inputsOf } from './use-it-inputs';

/**
 * How a saved ruleset reaches a storefront: the widget's script tag
 * and the API call with every input its rules read, ready to copy.
 */
export function UseIt({ id, ruleset, catalog }: { id: number; ruleset: Ruleset; catalog: RuleCatalog }) {
  const origin = window.location.origin;
  const inputs = inputsOf(ruleset, catalog);
  const attrs = inputs.filter((i) => i.attr !== null).map((i) => `\n  ${i.attr}="${i.value}"`);
  const params = inputs.map((i) => `&${i.param}=${i.value}`).join('');
  return (
    <details className="use-it">
      <summary>Use this ruleset on a storefront</summary>
      <p>
        A product-card widget. Replace the key with the shop's public key, and each capitalised value with the page's
        own (this ruleset reads {inputs.map((i) => i.param).join(', ')}):
      </p>
      <pre>
        <code data-testid="use-it-widget">
          {`<script src="${origin}/widget.js" async\n` +
            `  data-key="YOUR_PUBLIC_KEY" data-ruleset="${id}"${attrs.join('')}\n` +
            '  data-title="You may also like"></script>'}
        </code>
      </pre>
      <p>Or the JSON answer from a back end or an email tool:</p>
      <pre>
        <code data-testid="use-it-api">{`GET ${origin}/api/v1/custom/id/${id}?key=YOUR_PUBLIC_KEY${params}`}</code>
      </pre>
      <p className="muted">
        A cart subtotal is in the shop's currency (e.g. 49.90). Widgets can also be designed without code on the Widgets
        page.
      </p>
    </details>
  );
}
