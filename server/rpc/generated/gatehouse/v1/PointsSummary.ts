// Original file: gatehouse/v1/points.proto

import type { PointBalances as _gatehouse_v1_PointBalances, PointBalances__Output as _gatehouse_v1_PointBalances__Output } from '../../gatehouse/v1/PointBalances.ts';
import type { WindowUsage as _gatehouse_v1_WindowUsage, WindowUsage__Output as _gatehouse_v1_WindowUsage__Output } from '../../gatehouse/v1/WindowUsage.ts';
import type { OpenHold as _gatehouse_v1_OpenHold, OpenHold__Output as _gatehouse_v1_OpenHold__Output } from '../../gatehouse/v1/OpenHold.ts';
import type { Long } from '@grpc/proto-loader';

export interface PointsSummary {
  'userId'?: (string);
  'balances'?: (_gatehouse_v1_PointBalances | null);
  'windows'?: (_gatehouse_v1_WindowUsage)[];
  'spendableFromQuota'?: (number | string | Long);
  'spendableFromPool'?: (number | string | Long);
  'total'?: (number | string | Long);
  'held'?: (number | string | Long);
  'holds'?: (_gatehouse_v1_OpenHold)[];
  'holdCount'?: (number);
}

export interface PointsSummary__Output {
  'userId': (string);
  'balances': (_gatehouse_v1_PointBalances__Output | null);
  'windows': (_gatehouse_v1_WindowUsage__Output)[];
  'spendableFromQuota': (number);
  'spendableFromPool': (number);
  'total': (number);
  'held': (number);
  'holds': (_gatehouse_v1_OpenHold__Output)[];
  'holdCount': (number);
}
