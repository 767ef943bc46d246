// Original file: gatehouse/v1/points.proto

import type { QuotaWindowList as _gatehouse_v1_QuotaWindowList, QuotaWindowList__Output as _gatehouse_v1_QuotaWindowList__Output } from '../../gatehouse/v1/QuotaWindowList.ts';
import type { Long } from '@grpc/proto-loader';

export interface PutDefaultConfigRequest {
  'realmId'?: (string);
  'registrationBonusPoints'?: (number | string | Long);
  'freePeriodicPointsAmount'?: (number | string | Long);
  'freePeriodicGrantPeriodType'?: (string);
  'freePeriodicValidityDays'?: (number | string | Long);
  'freePeriodicQuotaWindows'?: (_gatehouse_v1_QuotaWindowList | null);
  '_registrationBonusPoints'?: "registrationBonusPoints";
  '_freePeriodicPointsAmount'?: "freePeriodicPointsAmount";
  '_freePeriodicGrantPeriodType'?: "freePeriodicGrantPeriodType";
  '_freePeriodicValidityDays'?: "freePeriodicValidityDays";
}

export interface PutDefaultConfigRequest__Output {
  'realmId': (string);
  'registrationBonusPoints'?: (number);
  'freePeriodicPointsAmount'?: (number);
  'freePeriodicGrantPeriodType'?: (string);
  'freePeriodicValidityDays'?: (number);
  'freePeriodicQuotaWindows': (_gatehouse_v1_QuotaWindowList__Output | null);
}
