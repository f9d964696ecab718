import type { LinkOutcome } from '../../services/billing/reactivation.js';
import { escapeHtml } from './html.js';

/** Headers of every HTML page: nothing loads but the page itself and images. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; form-action 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

function layout(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>` +
    'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f6f4;color:#1d1d1b}' +
    'main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px}' +
    'ul{list-style:none;padding:0}' +
    'li{display:flex;gap:1rem;align-items:center;padding:.75rem 0;border-bottom:1px solid #e3e3e0}' +
    'img{width:72px;height:72px;object-fit:cover;border-radius:8px}' +
    'button{font:inherit;font-weight:600;padding:.75rem 1.5rem;border:0;border-radius:8px;' +
    'background:#1f5130;color:#fff;cursor:pointer}button:focus-visible{outline:3px solid #e0a100;outline-offset:2px}' +
    `.note{color:#545450}</style></head><body><main>${body}</main></body></html>`
  );
}

/** The customer-facing page of a reactivation link: what it would reactivate, and one button. */
export function renderReactivationPage(outcome: LinkOutcome): { status: number; html: string } {
  if (outcome.kind === 'refused') {
    const message = outcome.reason === 'expired' ? 'This link has expired.' : 'This link is not valid.';
    return {
      status: 403,
      html: layout(
        'Link not valid',
        `<h1>${message}</h1><p class="note">Nothing was changed. Please ask the shop for a new link.</p>`,
      ),
    };
  }
  const name = escapeHtml(outcome.shop.name);
  const currency = escapeHtml(outcome.shop.currency);
  const items = outcome.subscriptions
    .map(({ subscription: s, image }) => {
      const next = escapeHtml((s.next_charge_scheduled_at ?? '').slice(0, 10));
      return (
        `<li>${image ? `<img src="${escapeHtml(image)}" alt="">` : ''}` +
        `<div><strong>${escapeHtml(s.product_title)}</strong>` +
        `${s.variant_title ? ` — ${escapeHtml(s.variant_title)}` : ''}` +
        `<br>${escapeHtml(s.price.toFixed(2))} ${currency} × ${s.quantity}, ` +
        `every ${escapeHtml(s.order_interval_frequency)} ${escapeHtml(s.order_interval_unit)}(s)` +
        `<br><span class="note">${s.status === 'ACTIVE' ? `Active — next delivery ${next}` : 'Cancelled'}</span>` +
        '</div></li>'
      );
    })
    .join('');
  if (outcome.state === 'nothing') {
    return {
      status: 200,
      html: layout(
        `${outcome.shop.name}: nothing to reactivate`,
        `<h1>Nothing to reactivate</h1><p>You had no cancelled subscription with ${name} when this link was made, ` +
          'so there is nothing to change. Please contact the shop if something looks wrong.</p>',
      ),
    };
  }
  if (outcome.state === 'already_claimed') {
    return {
      status: 200,
      html: layout(
        `${outcome.shop.name}: already reactivated`,
        `<h1>You already reactivated with this offer</h1>` +
          `<p>You have used this offer from ${name} as many times as it allows, so nothing was changed. ` +
          `Please contact the shop if something looks wrong.</p><ul>${items}</ul>`,
      ),
    };
  }
  if (outcome.state === 'reactivated') {
    const discount =
      outcome.discount === null
        ? ''
        : outcome.discount.applied
          ? '<p class="note">Your discount code is saved for your next delivery.</p>'
          : '<p class="note" role="status">Your discount code could not be saved ' +
            `(${escapeHtml(outcome.discount.reason)}). Please contact the shop.</p>`;
    return {
      status: 200,
      html: layout(
        `${outcome.shop.name}: reactivated`,
        `<h1>Welcome back, ${escapeHtml(outcome.customer.first_name || 'friend')}!</h1>` +
          `<p>Your subscription with ${name} is active again.</p>${discount}<ul>${items}</ul>`,
      ),
    };
  }
  const preview = outcome.live
    ? ''
    : '<p class="note" role="status">Preview: this link shows the page but never changes anything.</p>';
  return {
    status: 200,
    html: layout(
      `${outcome.shop.name}: reactivate your subscription`,
      `<h1>Reactivate your subscription with ${name}</h1>${preview}<ul>${items}</ul>` +
        `<form method="post" action="${escapeHtml(outcome.link)}"><button type="submit">Reactivate</button></form>`,
    ),
  };
}

/** The page shown when the shop's billing provider fails: nothing is charged twice on a retry. */
export function renderProviderErrorPage(status: number): string {
  const text =
    status === 503
      ? "The shop's subscription system is not answering just now, so your subscription was not reactivated yet. " +
        'Please try again in a minute: nothing will be charged twice.'
      : "The shop's subscription system gave an answer we could not use, so your subscription was not reactivated. " +
        'Please contact the shop.';
  return layout('Please try again', `<h1>Please try again</h1><p>${text}</p>`);
}
