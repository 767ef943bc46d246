// Original file: gatehouse/v1/billing.proto

import type { QuotaWindowList as _gatehouse_v1_QuotaWindowList, QuotaWindowList__Output as _gatehouse_v1_QuotaWindowList__Output } from '../../gatehouse/v1/QuotaWindowList.ts';
import type { Long } from '@grpc/proto-loader';

export interface EntitlementMappingUpdate {
  'mappingId'?: (string);
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
  '_mappingId'?: "mappingId";
  '_entitlementKey'?: "entitlementKey";
  '_billingType'?: "billingType";
  '_billingPeriod'?: "billingPeriod";
  '_pointsPerPeriod'?: "pointsPerPeriod";
  '_grantPeriodType'?: "grantPeriodType";
  '_validityDays'?: "validityDays";
  '_grantOnSubscribe'?: "grantOnSubscribe";
  '_maxPeriods'?: "maxPeriods";
  '_enabled'?: "enabled";
}

export interface EntitlementMappingUpdate__Output {
  'mappingId'?: (string);
  'entitlementKey'?: (string);
  'billingType'?: (string);
  'billingPeriod'?: (string);
  'pointsPerPeriod'?: (number);
  'grantPeriodType'?: (string);
  'validityDays'?: (number);
  'grantOnSubscribe'?: (boolean);
  'maxPeriods'?: (number);
  'enabled'?: (boolean);
  'quotaWindows': (_gatehouse_v1_QuotaWindowList__Output | null);
}
