import { Type } from '@sinclair/typebox';

export const Live = Type.Object({ status: Type.Literal('ok') });
export const Ready = Type.Object({ status: Type.Literal('ready') });
