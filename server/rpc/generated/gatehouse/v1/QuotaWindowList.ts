// Original file: gatehouse/v1/points.proto

import type { QuotaWindow as _gatehouse_v1_QuotaWindow, QuotaWindow__Output as _gatehouse_v1_QuotaWindow__Output } from '../../gatehouse/v1/QuotaWindow.ts';

export interface QuotaWindowList {
  'windows'?: (_gatehouse_v1_QuotaWindow)[];
}

export interface QuotaWindowList__Output {
  'windows': (_gatehouse_v1_QuotaWindow__Output)[];
}
