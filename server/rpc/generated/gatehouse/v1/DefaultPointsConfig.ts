// Original file: gatehouse/v1/points.proto

import type { QuotaWindowList as _gatehouse_v1_QuotaWindowList, QuotaWindowList__Output as _gatehouse_v1_QuotaWindowList__Output } from '../../gatehouse/v1/QuotaWindowList.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface DefaultPointsConfig {
  'realmId'?: (string);
  'registrationBonusPoints'?: (number | string | Long);
  'freePeriodicPointsAmount'?: (number | string | Long);
  'freePeriodicGrantPeriodType'?: (string);
  'freePeriodicValidityDays'?: (number | string | Long);
  'freePeriodicQuotaWindows'?: (_gatehouse_v1_QuotaWindowList | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
}

export interface DefaultPointsConfig__Output {
  'realmId': (string);
  'registrationBonusPoints': (number);
  'freePeriodicPointsAmount': (number);
  'freePeriodicGrantPeriodType': (string);
  'freePeriodicValidityDays': (number);
  'freePeriodicQuotaWindows': (_gatehouse_v1_QuotaWindowList__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
}
