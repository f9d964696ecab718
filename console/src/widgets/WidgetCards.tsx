import { type MouseEvent, useEffect, useRef } from 'react';
import { readConfig } from '../../../widget/src/config';
import { renderWidget } from '../../../widget/src/render';
import type { StoredWidget } from '../../../widget/src/stored';
import { injectStyles } from '../../../widget/src/styles';
import type { Product } from '../types';

/**
 * The storefront's own cards: the widget script's reader and renderer, given the same design, so
 * the preview cannot drift from what shoppers see. Clicks do nothing here.
 */
export function WidgetCards({
  widget,
  products,
  currency,
}: {
  widget: StoredWidget;
  products: Product[];
  currency: string;
}) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const script = document.createElement('script');
    script.setAttribute('data-key', 'preview');
    script.setAttribute('data-api', window.location.origin);
    script.setAttribute('data-currency', currency);
    const config = readConfig(script, widget, null);
    if (!config) return;
    injectStyles();
    // The buttons are shown as shoppers see them; here they add nothing.
    element.replaceChildren(renderWidget(products, config, { click: () => undefined, add: () => undefined }));
  }, [widget, products, currency]);
  // The cards link to the storefront's product pages, which are not on this server: the preview stays put.
  const stay = (event: MouseEvent) => {
    if ((event.target as Element).closest('a')) event.preventDefault();
  };
  return <div ref={holder} className="widget-preview-cards" data-testid="widget-preview" onClickCapture={stay} />;
}
