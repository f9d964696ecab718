/**
 * Every rule is scoped under `.rbw` so the widget neither leaks styles into the page nor depends on its reset.
 * A backslash at the end of a line continues the rule on the next one (no newline in the text).
 */
export const CSS = `
.rbw{box-sizing:border-box;margin:2rem 0;font:inherit;color:inherit}
.rbw *,.rbw *::before,.rbw *::after{box-sizing:border-box}
.rbw-heading{margin:0 0 1rem;font-size:1.25rem;line-height:1.3;font-weight:600}
.rbw-list{list-style:none;margin:0;padding:0;display:grid;gap:1rem;\
grid-template-columns:repeat(auto-fill,minmax(10rem,1fr))}
.rbw-card{margin:0;padding:0;display:flex;flex-direction:column;min-width:0}
.rbw-link{display:flex;flex-direction:column;gap:.5rem;color:inherit;text-decoration:none}
.rbw-link:hover .rbw-title,.rbw-link:focus-visible .rbw-title{text-decoration:underline}
.rbw-link:focus-visible{outline:2px solid currentColor;outline-offset:3px;border-radius:4px}
.rbw-media{display:block;aspect-ratio:1/1;width:100%;overflow:hidden;border-radius:8px;background:#f1f1ef}
.rbw-image{display:block;width:100%;height:100%;object-fit:cover}
.rbw-title{font-size:.95rem;line-height:1.35;overflow-wrap:anywhere}
.rbw-price{margin:.25rem 0 0;font-weight:600;font-size:.95rem}
.rbw-compare{margin-left:.4rem;font-weight:400;text-decoration:line-through;opacity:.65}
.rbw-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;\
clip:rect(0 0 0 0);white-space:nowrap;border:0}
.rbw-stock{margin:.15rem 0 0;font-size:.8rem;color:#2f6b3a}
.rbw-stock.rbw-out{color:#9a3412}
.rbw-vendor{font-size:.8rem;opacity:.75}
.rbw-add{margin-top:.5rem;padding:.5rem .75rem;border:0;border-radius:6px;font:inherit;cursor:pointer;\
color:#fff;background:var(--rbw-accent,#1f2937)}
.rbw-add:focus-visible{outline:2px solid currentColor;outline-offset:2px}
.rbw-link:hover .rbw-title{color:var(--rbw-accent,inherit)}
.rbw-carousel .rbw-list{display:flex;overflow-x:auto;scroll-snap-type:x mandatory;padding-bottom:.5rem}
.rbw-carousel .rbw-card{flex:0 0 11rem;scroll-snap-align:start}
@media (max-width:480px){.rbw-list{grid-template-columns:repeat(2,minmax(0,1fr));gap:.75rem}\
.rbw-heading{font-size:1.1rem}}
`;

const STYLE_ID = 'rebound-widget-style';

/** Adds the stylesheet once per page, however many widgets there are. */
export function injectStyles(): void {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  (document.head ?? document.documentElement).appendChild(style);
}
