// Original file: gatehouse/v1/billing.proto

import type { QuotaWindowList as _gatehouse_v1_QuotaWindowList, QuotaWindowList__Output as _gatehouse_v1_QuotaWindowList__Output } from '../../gatehouse/v1/QuotaWindowList.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface EntitlementMapping {
  'mappingId'?: (string);
  'realmId'?: (string);
  'paymentProvider'?: (string);
  'externalProductId'?: (string);
  'entitlementKey'?: (string);
  'billingType'?: (string);
  'billingPeriod'?: (string);
  'pointsPerPeriod'?: (number | string | Long);
  'grantPeriodType'?: (string);
  'validityDays'?: (number | string | Long);
  'grantOnSubscribe'?: (boolean);
  'maxPeriods'?: (number | string | Long);
  'enabled'?: (boolean);
  'quotaWindows'?: (_gatehouse_v1_QuotaWindowList | null);
  'activeSubscriptions'?: (number | string | Long);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
}

export interface EntitlementMapping__Output {
  'mappingId': (string);
  'realmId': (string);
  'paymentProvider': (string);
  'externalProductId': (string);
  'entitlementKey': (string);
  'billingType': (string);
  'billingPeriod': (string);
  'pointsPerPeriod': (number);
  'grantPeriodType': (string);
  'validityDays': (number);
  'grantOnSubscribe': (boolean);
  'maxPeriods': (number);
  'enabled': (boolean);
  'quotaWindows': (_gatehouse_v1_QuotaWindowList__Output | null);
  'activeSubscriptions': (number);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
}
