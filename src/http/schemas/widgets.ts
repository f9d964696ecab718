import { Type } from '@sinclair/typebox';
import { WidgetInput } from '../../domain/widgets/widget.js';

const Stamp = Type.Object({
  id: Type.Integer(),
  version: Type.Integer({ description: 'moved by every PUT' }),
});

export const WidgetSchema = Type.Composite([
  WidgetInput,
  Stamp,
  Type.Object({ created_at: Type.String({ format: 'date-time' }), updated_at: Type.String({ format: 'date-time' }) }),
]);
export const WidgetAnswer = Type.Object({ widget: WidgetSchema });
export const PublicWidgetAnswer = Type.Object({ widget: Type.Composite([WidgetInput, Stamp]) });
