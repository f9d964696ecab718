import type { Widget, WidgetInput } from '../domain/widgets/widget.js';

/** Storage of storefront widgets (docs/widget.md, "Widgets as data"). Every write moves the shop's data version. */
export interface WidgetStore {
  createWidget(shopId: number, input: WidgetInput): Promise<Widget>;
  /** Replaces the design and moves its version; null when there is no such widget. */
  updateWidget(shopId: number, id: number, input: WidgetInput): Promise<Widget | null>;
  deleteWidget(shopId: number, id: number): Promise<boolean>;
  getWidget(shopId: number, id: number): Promise<Widget | null>;
  /** The shop's widgets, oldest first. */
  listWidgets(shopId: number): Promise<Widget[]>;
}
