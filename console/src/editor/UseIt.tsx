/** How a saved ruleset reaches a storefront: the widget's script tag and the API call, ready to copy. */
export function UseIt({ id }: { id: number }) {
  const origin = window.location.origin;
  return (
    <details className="use-it">
      <summary>Use this ruleset on a storefront</summary>
      <p>A product-card widget (replace the key with the shop's public key and the ids with the page's products):</p>
      <pre>
        <code>{`<script src="${origin}/widget.js" async\n  data-key="YOUR_PUBLIC_KEY" data-ruleset="${id}"\n  data-product-ids="PRODUCT_ID" data-title="You may also like"></script>`}</code>
      </pre>
      <p>Or the JSON answer from a back end or an email tool:</p>
      <pre>
        <code>{`GET ${origin}/api/v1/custom/id/${id}?key=YOUR_PUBLIC_KEY&shop_product_ids=PRODUCT_ID`}</code>
      </pre>
    </details>
  );
}
