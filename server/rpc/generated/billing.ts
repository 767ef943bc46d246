import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AccessRule as _gatehouse_v1_AccessRule, AccessRule__Output as _gatehouse_v1_AccessRule__Output } from './gatehouse/v1/AccessRule.ts';
import type { Allocation as _gatehouse_v1_Allocation, Allocation__Output as _gatehouse_v1_Allocation__Output } from './gatehouse/v1/Allocation.ts';
import type { AppStoreNotificationRequest as _gatehouse_v1_AppStoreNotificationRequest, AppStoreNotificationRequest__Output as _gatehouse_v1_AppStoreNotificationRequest__Output } from './gatehouse/v1/AppStoreNotificationRequest.ts';
import type { AppStoreSettings as _gatehouse_v1_AppStoreSettings, AppStoreSettings__Output as _gatehouse_v1_AppStoreSettings__Output } from './gatehouse/v1/AppStoreSettings.ts';
import type { BatchUpdateEntitlementMappingsRequest as _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, BatchUpdateEntitlementMappingsRequest__Output as _gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output } from './gatehouse/v1/BatchUpdateEntitlementMappingsRequest.ts';
import type { BatchUpdateEntitlementMappingsResponse as _gatehouse_v1_BatchUpdateEntitlementMappingsResponse, BatchUpdateEntitlementMappingsResponse__Output as _gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output } from './gatehouse/v1/BatchUpdateEntitlementMappingsResponse.ts';
import type { BillingNotification as _gatehouse_v1_BillingNotification, BillingNotification__Output as _gatehouse_v1_BillingNotification__Output } from './gatehouse/v1/BillingNotification.ts';
import type { BillingServiceClient as _gatehouse_v1_BillingServiceClient, BillingServiceDefinition as _gatehouse_v1_BillingServiceDefinition } from './gatehouse/v1/BillingService.ts';
import type { CancelSubscriptionRequest as _gatehouse_v1_CancelSubscriptionRequest, CancelSubscriptionRequest__Output as _gatehouse_v1_CancelSubscriptionRequest__Output } from './gatehouse/v1/CancelSubscriptionRequest.ts';
import type { ConsumeRequest as _gatehouse_v1_ConsumeRequest, ConsumeRequest__Output as _gatehouse_v1_ConsumeRequest__Output } from './gatehouse/v1/ConsumeRequest.ts';
import type { ConsumeResponse as _gatehouse_v1_ConsumeResponse, ConsumeResponse__Output as _gatehouse_v1_ConsumeResponse__Output } from './gatehouse/v1/ConsumeResponse.ts';
import type { CreateHoldRequest as _gatehouse_v1_CreateHoldRequest, CreateHoldRequest__Output as _gatehouse_v1_CreateHoldRequest__Output } from './gatehouse/v1/CreateHoldRequest.ts';
import type { CreateSubscriptionRequest as _gatehouse_v1_CreateSubscriptionRequest, CreateSubscriptionRequest__Output as _gatehouse_v1_CreateSubscriptionRequest__Output } from './gatehouse/v1/CreateSubscriptionRequest.ts';
import type { DefaultPointsConfig as _gatehouse_v1_DefaultPointsConfig, DefaultPointsConfig__Output as _gatehouse_v1_DefaultPointsConfig__Output } from './gatehouse/v1/DefaultPointsConfig.ts';
import type { EntitlementMapping as _gatehouse_v1_EntitlementMapping, EntitlementMapping__Output as _gatehouse_v1_EntitlementMapping__Output } from './gatehouse/v1/EntitlementMapping.ts';
import type { EntitlementMappingUpdate as _gatehouse_v1_EntitlementMappingUpdate, EntitlementMappingUpdate__Output as _gatehouse_v1_EntitlementMappingUpdate__Output } from './gatehouse/v1/EntitlementMappingUpdate.ts';
import type { ErrorCodes as _gatehouse_v1_ErrorCodes, ErrorCodes__Output as _gatehouse_v1_ErrorCodes__Output } from './gatehouse/v1/ErrorCodes.ts';
import type { FieldLimits as _gatehouse_v1_FieldLimits, FieldLimits__Output as _gatehouse_v1_FieldLimits__Output } from './gatehouse/v1/FieldLimits.ts';
import type { GetAlertsRequest as _gatehouse_v1_GetAlertsRequest, GetAlertsRequest__Output as _gatehouse_v1_GetAlertsRequest__Output } from './gatehouse/v1/GetAlertsRequest.ts';
import type { GetDefaultConfigRequest as _gatehouse_v1_GetDefaultConfigRequest, GetDefaultConfigRequest__Output as _gatehouse_v1_GetDefaultConfigRequest__Output } from './gatehouse/v1/GetDefaultConfigRequest.ts';
import type { GetHoldRequest as _gatehouse_v1_GetHoldRequest, GetHoldRequest__Output as _gatehouse_v1_GetHoldRequest__Output } from './gatehouse/v1/GetHoldRequest.ts';
import type { GetMySummaryRequest as _gatehouse_v1_GetMySummaryRequest, GetMySummaryRequest__Output as _gatehouse_v1_GetMySummaryRequest__Output } from './gatehouse/v1/GetMySummaryRequest.ts';
import type { GetPaymentProviderSettingsRequest as _gatehouse_v1_GetPaymentProviderSettingsRequest, GetPaymentProviderSettingsRequest__Output as _gatehouse_v1_GetPaymentProviderSettingsRequest__Output } from './gatehouse/v1/GetPaymentProviderSettingsRequest.ts';
import type { GetSummaryRequest as _gatehouse_v1_GetSummaryRequest, GetSummaryRequest__Output as _gatehouse_v1_GetSummaryRequest__Output } from './gatehouse/v1/GetSummaryRequest.ts';
import type { GrantRequest as _gatehouse_v1_GrantRequest, GrantRequest__Output as _gatehouse_v1_GrantRequest__Output } from './gatehouse/v1/GrantRequest.ts';
import type { GrantResponse as _gatehouse_v1_GrantResponse, GrantResponse__Output as _gatehouse_v1_GrantResponse__Output } from './gatehouse/v1/GrantResponse.ts';
import type { Hold as _gatehouse_v1_Hold, Hold__Output as _gatehouse_v1_Hold__Output } from './gatehouse/v1/Hold.ts';
import type { ListBillingNotificationsRequest as _gatehouse_v1_ListBillingNotificationsRequest, ListBillingNotificationsRequest__Output as _gatehouse_v1_ListBillingNotificationsRequest__Output } from './gatehouse/v1/ListBillingNotificationsRequest.ts';
import type { ListBillingNotificationsResponse as _gatehouse_v1_ListBillingNotificationsResponse, ListBillingNotificationsResponse__Output as _gatehouse_v1_ListBillingNotificationsResponse__Output } from './gatehouse/v1/ListBillingNotificationsResponse.ts';
import type { ListEntitlementMappingsRequest as _gatehouse_v1_ListEntitlementMappingsRequest, ListEntitlementMappingsRequest__Output as _gatehouse_v1_ListEntitlementMappingsRequest__Output } from './gatehouse/v1/ListEntitlementMappingsRequest.ts';
import type { ListEntitlementMappingsResponse as _gatehouse_v1_ListEntitlementMappingsResponse, ListEntitlementMappingsResponse__Output as _gatehouse_v1_ListEntitlementMappingsResponse__Output } from './gatehouse/v1/ListEntitlementMappingsResponse.ts';
import type { ListMyTransactionsRequest as _gatehouse_v1_ListMyTransactionsRequest, ListMyTransactionsRequest__Output as _gatehouse_v1_ListMyTransactionsRequest__Output } from './gatehouse/v1/ListMyTransactionsRequest.ts';
import type { ListTransactionsRequest as _gatehouse_v1_ListTransactionsRequest, ListTransactionsRequest__Output as _gatehouse_v1_ListTransactionsRequest__Output } from './gatehouse/v1/ListTransactionsRequest.ts';
import type { ListTransactionsResponse as _gatehouse_v1_ListTransactionsResponse, ListTransactionsResponse__Output as _gatehouse_v1_ListTransactionsResponse__Output } from './gatehouse/v1/ListTransactionsResponse.ts';
import type { NotificationReceipt as _gatehouse_v1_NotificationReceipt, NotificationReceipt__Output as _gatehouse_v1_NotificationReceipt__Output } from './gatehouse/v1/NotificationReceipt.ts';
import type { OpenHold as _gatehouse_v1_OpenHold, OpenHold__Output as _gatehouse_v1_OpenHold__Output } from './gatehouse/v1/OpenHold.ts';
import type { PaymentProviderSettings as _gatehouse_v1_PaymentProviderSettings, PaymentProviderSettings__Output as _gatehouse_v1_PaymentProviderSettings__Output } from './gatehouse/v1/PaymentProviderSettings.ts';
import type { PointBalances as _gatehouse_v1_PointBalances, PointBalances__Output as _gatehouse_v1_PointBalances__Output } from './gatehouse/v1/PointBalances.ts';
import type { PointsAlerts as _gatehouse_v1_PointsAlerts, PointsAlerts__Output as _gatehouse_v1_PointsAlerts__Output } from './gatehouse/v1/PointsAlerts.ts';
import type { PointsServiceClient as _gatehouse_v1_PointsServiceClient, PointsServiceDefinition as _gatehouse_v1_PointsServiceDefinition } from './gatehouse/v1/PointsService.ts';
import type { PointsSummary as _gatehouse_v1_PointsSummary, PointsSummary__Output as _gatehouse_v1_PointsSummary__Output } from './gatehouse/v1/PointsSummary.ts';
import type { PutAlertsRequest as _gatehouse_v1_PutAlertsRequest, PutAlertsRequest__Output as _gatehouse_v1_PutAlertsRequest__Output } from './gatehouse/v1/PutAlertsRequest.ts';
import type { PutDefaultConfigRequest as _gatehouse_v1_PutDefaultConfigRequest, PutDefaultConfigRequest__Output as _gatehouse_v1_PutDefaultConfigRequest__Output } from './gatehouse/v1/PutDefaultConfigRequest.ts';
import type { QuotaWindow as _gatehouse_v1_QuotaWindow, QuotaWindow__Output as _gatehouse_v1_QuotaWindow__Output } from './gatehouse/v1/QuotaWindow.ts';
import type { QuotaWindowList as _gatehouse_v1_QuotaWindowList, QuotaWindowList__Output as _gatehouse_v1_QuotaWindowList__Output } from './gatehouse/v1/QuotaWindowList.ts';
import type { RefundAllocation as _gatehouse_v1_RefundAllocation, RefundAllocation__Output as _gatehouse_v1_RefundAllocation__Output } from './gatehouse/v1/RefundAllocation.ts';
import type { RefundTransactionRequest as _gatehouse_v1_RefundTransactionRequest, RefundTransactionRequest__Output as _gatehouse_v1_RefundTransactionRequest__Output } from './gatehouse/v1/RefundTransactionRequest.ts';
import type { RefundTransactionResponse as _gatehouse_v1_RefundTransactionResponse, RefundTransactionResponse__Output as _gatehouse_v1_RefundTransactionResponse__Output } from './gatehouse/v1/RefundTransactionResponse.ts';
import type { ReleaseHoldRequest as _gatehouse_v1_ReleaseHoldRequest, ReleaseHoldRequest__Output as _gatehouse_v1_ReleaseHoldRequest__Output } from './gatehouse/v1/ReleaseHoldRequest.ts';
import type { Remaining as _gatehouse_v1_Remaining, Remaining__Output as _gatehouse_v1_Remaining__Output } from './gatehouse/v1/Remaining.ts';
import type { ReplayBillingNotificationRequest as _gatehouse_v1_ReplayBillingNotificationRequest, ReplayBillingNotificationRequest__Output as _gatehouse_v1_ReplayBillingNotificationRequest__Output } from './gatehouse/v1/ReplayBillingNotificationRequest.ts';
import type { SetAppStoreSettingsRequest as _gatehouse_v1_SetAppStoreSettingsRequest, SetAppStoreSettingsRequest__Output as _gatehouse_v1_SetAppStoreSettingsRequest__Output } from './gatehouse/v1/SetAppStoreSettingsRequest.ts';
import type { SetStripeSettingsRequest as _gatehouse_v1_SetStripeSettingsRequest, SetStripeSettingsRequest__Output as _gatehouse_v1_SetStripeSettingsRequest__Output } from './gatehouse/v1/SetStripeSettingsRequest.ts';
import type { SettleHoldRequest as _gatehouse_v1_SettleHoldRequest, SettleHoldRequest__Output as _gatehouse_v1_SettleHoldRequest__Output } from './gatehouse/v1/SettleHoldRequest.ts';
import type { SettleHoldResponse as _gatehouse_v1_SettleHoldResponse, SettleHoldResponse__Output as _gatehouse_v1_SettleHoldResponse__Output } from './gatehouse/v1/SettleHoldResponse.ts';
import type { StripeEventRequest as _gatehouse_v1_StripeEventRequest, StripeEventRequest__Output as _gatehouse_v1_StripeEventRequest__Output } from './gatehouse/v1/StripeEventRequest.ts';
import type { StripeSettings as _gatehouse_v1_StripeSettings, StripeSettings__Output as _gatehouse_v1_StripeSettings__Output } from './gatehouse/v1/StripeSettings.ts';
import type { Subscription as _gatehouse_v1_Subscription, Subscription__Output as _gatehouse_v1_Subscription__Output } from './gatehouse/v1/Subscription.ts';
import type { Transaction as _gatehouse_v1_Transaction, Transaction__Output as _gatehouse_v1_Transaction__Output } from './gatehouse/v1/Transaction.ts';
import type { WindowUsage as _gatehouse_v1_WindowUsage, WindowUsage__Output as _gatehouse_v1_WindowUsage__Output } from './gatehouse/v1/WindowUsage.ts';
import type { CustomHttpPattern as _google_api_CustomHttpPattern, CustomHttpPattern__Output as _google_api_CustomHttpPattern__Output } from './google/api/CustomHttpPattern.ts';
import type { Http as _google_api_Http, Http__Output as _google_api_Http__Output } from './google/api/Http.ts';
import type { HttpRule as _google_api_HttpRule, HttpRule__Output as _google_api_HttpRule__Output } from './google/api/HttpRule.ts';
import type { DescriptorProto as _google_protobuf_DescriptorProto, DescriptorProto__Output as _google_protobuf_DescriptorProto__Output } from './google/protobuf/DescriptorProto.ts';
import type { EnumDescriptorProto as _google_protobuf_EnumDescriptorProto, EnumDescriptorProto__Output as _google_protobuf_EnumDescriptorProto__Output } from './google/protobuf/EnumDescriptorProto.ts';
import type { EnumOptions as _google_protobuf_EnumOptions, EnumOptions__Output as _google_protobuf_EnumOptions__Output } from './google/protobuf/EnumOptions.ts';
import type { EnumValueDescriptorProto as _google_protobuf_EnumValueDescriptorProto, EnumValueDescriptorProto__Output as _google_protobuf_EnumValueDescriptorProto__Output } from './google/protobuf/EnumValueDescriptorProto.ts';
import type { EnumValueOptions as _google_protobuf_EnumValueOptions, EnumValueOptions__Output as _google_protobuf_EnumValueOptions__Output } from './google/protobuf/EnumValueOptions.ts';
import type { ExtensionRangeOptions as _google_protobuf_ExtensionRangeOptions, ExtensionRangeOptions__Output as _google_protobuf_ExtensionRangeOptions__Output } from './google/protobuf/ExtensionRangeOptions.ts';
import type { FeatureSet as _google_protobuf_FeatureSet, FeatureSet__Output as _google_protobuf_FeatureSet__Output } from './google/protobuf/FeatureSet.ts';
import type { FeatureSetDefaults as _google_protobuf_FeatureSetDefaults, FeatureSetDefaults__Output as _google_protobuf_FeatureSetDefaults__Output } from './google/protobuf/FeatureSetDefaults.ts';
import type { FieldDescriptorProto as _google_protobuf_FieldDescriptorProto, FieldDescriptorProto__Output as _google_protobuf_FieldDescriptorProto__Output } from './google/protobuf/FieldDescriptorProto.ts';
import type { FieldOptions as _google_protobuf_FieldOptions, FieldOptions__Output as _google_protobuf_FieldOptions__Output } from './google/protobuf/FieldOptions.ts';
import type { FileDescriptorProto as _google_protobuf_FileDescriptorProto, FileDescriptorProto__Output as _google_protobuf_FileDescriptorProto__Output } from './google/protobuf/FileDescriptorProto.ts';
import type { FileDescriptorSet as _google_protobuf_FileDescriptorSet, FileDescriptorSet__Output as _google_protobuf_FileDescriptorSet__Output } from './google/protobuf/FileDescriptorSet.ts';
import type { FileOptions as _google_protobuf_FileOptions, FileOptions__Output as _google_protobuf_FileOptions__Output } from './google/protobuf/FileOptions.ts';
import type { GeneratedCodeInfo as _google_protobuf_GeneratedCodeInfo, GeneratedCodeInfo__Output as _google_protobuf_GeneratedCodeInfo__Output } from './google/protobuf/GeneratedCodeInfo.ts';
import type { MessageOptions as _google_protobuf_MessageOptions, MessageOptions__Output as _google_protobuf_MessageOptions__Output } from './google/protobuf/MessageOptions.ts';
import type { MethodDescriptorProto as _google_protobuf_MethodDescriptorProto, MethodDescriptorProto__Output as _google_protobuf_MethodDescriptorProto__Output } from './google/protobuf/MethodDescriptorProto.ts';
import type { MethodOptions as _google_protobuf_MethodOptions, MethodOptions__Output as _google_protobuf_MethodOptions__Output } from './google/protobuf/MethodOptions.ts';
import type { OneofDescriptorProto as _google_protobuf_OneofDescriptorProto, OneofDescriptorProto__Output as _google_protobuf_OneofDescriptorProto__Output } from './google/protobuf/OneofDescriptorProto.ts';
import type { OneofOptions as _google_protobuf_OneofOptions, OneofOptions__Output as _google_protobuf_OneofOptions__Output } from './google/protobuf/OneofOptions.ts';
import type { ServiceDescriptorProto as _google_protobuf_ServiceDescriptorProto, ServiceDescriptorProto__Output as _google_protobuf_ServiceDescriptorProto__Output } from './google/protobuf/ServiceDescriptorProto.ts';
import type { ServiceOptions as _google_protobuf_ServiceOptions, ServiceOptions__Output as _google_protobuf_ServiceOptions__Output } from './google/protobuf/ServiceOptions.ts';
import type { SourceCodeInfo as _google_protobuf_SourceCodeInfo, SourceCodeInfo__Output as _google_protobuf_SourceCodeInfo__Output } from './google/protobuf/SourceCodeInfo.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.ts';
import type { UninterpretedOption as _google_protobuf_UninterpretedOption, UninterpretedOption__Output as _google_protobuf_UninterpretedOption__Output } from './google/protobuf/UninterpretedOption.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gatehouse: {
    v1: {
      AccessRule: MessageTypeDefinition<_gatehouse_v1_AccessRule, _gatehouse_v1_AccessRule__Output>
      Allocation: MessageTypeDefinition<_gatehouse_v1_Allocation, _gatehouse_v1_Allocation__Output>
      AppStoreNotificationRequest: MessageTypeDefinition<_gatehouse_v1_AppStoreNotificationRequest, _gatehouse_v1_AppStoreNotificationRequest__Output>
      AppStoreSettings: MessageTypeDefinition<_gatehouse_v1_AppStoreSettings, _gatehouse_v1_AppStoreSettings__Output>
      BatchUpdateEntitlementMappingsRequest: MessageTypeDefinition<_gatehouse_v1_BatchUpdateEntitlementMappingsRequest, _gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output>
      BatchUpdateEntitlementMappingsResponse: MessageTypeDefinition<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse, _gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>
      BillingNotification: MessageTypeDefinition<_gatehouse_v1_BillingNotification, _gatehouse_v1_BillingNotification__Output>
      BillingService: SubtypeConstructor<typeof grpc.Client, _gatehouse_v1_BillingServiceClient> & { service: _gatehouse_v1_BillingServiceDefinition }
      CancelSubscriptionRequest: MessageTypeDefinition<_gatehouse_v1_CancelSubscriptionRequest, _gatehouse_v1_CancelSubscriptionRequest__Output>
      ConsumeRequest: MessageTypeDefinition<_gatehouse_v1_ConsumeRequest, _gatehouse_v1_ConsumeRequest__Output>
      ConsumeResponse: MessageTypeDefinition<_gatehouse_v1_ConsumeResponse, _gatehouse_v1_ConsumeResponse__Output>
      CreateHoldRequest: MessageTypeDefinition<_gatehouse_v1_CreateHoldRequest, _gatehouse_v1_CreateHoldRequest__Output>
      CreateSubscriptionRequest: MessageTypeDefinition<_gatehouse_v1_CreateSubscriptionRequest, _gatehouse_v1_CreateSubscriptionRequest__Output>
      DefaultPointsConfig: MessageTypeDefinition<_gatehouse_v1_DefaultPointsConfig, _gatehouse_v1_DefaultPointsConfig__Output>
      EntitlementMapping: MessageTypeDefinition<_gatehouse_v1_EntitlementMapping, _gatehouse_v1_EntitlementMapping__Output>
      EntitlementMappingUpdate: MessageTypeDefinition<_gatehouse_v1_EntitlementMappingUpdate, _gatehouse_v1_EntitlementMappingUpdate__Output>
      ErrorCodes: MessageTypeDefinition<_gatehouse_v1_ErrorCodes, _gatehouse_v1_ErrorCodes__Output>
      FieldLimits: MessageTypeDefinition<_gatehouse_v1_FieldLimits, _gatehouse_v1_FieldLimits__Output>
      GetAlertsRequest: MessageTypeDefinition<_gatehouse_v1_GetAlertsRequest, _gatehouse_v1_GetAlertsRequest__Output>
      GetDefaultConfigRequest: MessageTypeDefinition<_gatehouse_v1_GetDefaultConfigRequest, _gatehouse_v1_GetDefaultConfigRequest__Output>
      GetHoldRequest: MessageTypeDefinition<_gatehouse_v1_GetHoldRequest, _gatehouse_v1_GetHoldRequest__Output>
      GetMySummaryRequest: MessageTypeDefinition<_gatehouse_v1_GetMySummaryRequest, _gatehouse_v1_GetMySummaryRequest__Output>
      GetPaymentProviderSettingsRequest: MessageTypeDefinition<_gatehouse_v1_GetPaymentProviderSettingsRequest, _gatehouse_v1_GetPaymentProviderSettingsRequest__Output>
      GetSummaryRequest: MessageTypeDefinition<_gatehouse_v1_GetSummaryRequest, _gatehouse_v1_GetSummaryRequest__Output>
      GrantRequest: MessageTypeDefinition<_gatehouse_v1_GrantRequest, _gatehouse_v1_GrantRequest__Output>
      GrantResponse: MessageTypeDefinition<_gatehouse_v1_GrantResponse, _gatehouse_v1_GrantResponse__Output>
      Hold: MessageTypeDefinition<_gatehouse_v1_Hold, _gatehouse_v1_Hold__Output>
      ListBillingNotificationsRequest: MessageTypeDefinition<_gatehouse_v1_ListBillingNotificationsRequest, _gatehouse_v1_ListBillingNotificationsRequest__Output>
      ListBillingNotificationsResponse: MessageTypeDefinition<_gatehouse_v1_ListBillingNotificationsResponse, _gatehouse_v1_ListBillingNotificationsResponse__Output>
      ListEntitlementMappingsRequest: MessageTypeDefinition<_gatehouse_v1_ListEntitlementMappingsRequest, _gatehouse_v1_ListEntitlementMappingsRequest__Output>
      ListEntitlementMappingsResponse: MessageTypeDefinition<_gatehouse_v1_ListEntitlementMappingsResponse, _gatehouse_v1_ListEntitlementMappingsResponse__Output>
      ListMyTransactionsRequest: MessageTypeDefinition<_gatehouse_v1_ListMyTransactionsRequest, _gatehouse_v1_ListMyTransactionsRequest__Output>
      ListTransactionsRequest: MessageTypeDefinition<_gatehouse_v1_ListTransactionsRequest, _gatehouse_v1_ListTransactionsRequest__Output>
      ListTransactionsResponse: MessageTypeDefinition<_gatehouse_v1_ListTransactionsResponse, _gatehouse_v1_ListTransactionsResponse__Output>
      NotificationReceipt: MessageTypeDefinition<_gatehouse_v1_NotificationReceipt, _gatehouse_v1_NotificationReceipt__Output>
      OpenHold: MessageTypeDefinition<_gatehouse_v1_OpenHold, _gatehouse_v1_OpenHold__Output>
      PaymentProviderSettings: MessageTypeDefinition<_gatehouse_v1_PaymentProviderSettings, _gatehouse_v1_PaymentProviderSettings__Output>
      PointBalances: MessageTypeDefinition<_gatehouse_v1_PointBalances, _gatehouse_v1_PointBalances__Output>
      PointsAlerts: MessageTypeDefinition<_gatehouse_v1_PointsAlerts, _gatehouse_v1_PointsAlerts__Output>
      PointsService: SubtypeConstructor<typeof grpc.Client, _gatehouse_v1_PointsServiceClient> & { service: _gatehouse_v1_PointsServiceDefinition }
      PointsSummary: MessageTypeDefinition<_gatehouse_v1_PointsSummary, _gatehouse_v1_PointsSummary__Output>
      PutAlertsRequest: MessageTypeDefinition<_gatehouse_v1_PutAlertsRequest, _gatehouse_v1_PutAlertsRequest__Output>
      PutDefaultConfigRequest: MessageTypeDefinition<_gatehouse_v1_PutDefaultConfigRequest, _gatehouse_v1_PutDefaultConfigRequest__Output>
      QuotaWindow: MessageTypeDefinition<_gatehouse_v1_QuotaWindow, _gatehouse_v1_QuotaWindow__Output>
      QuotaWindowList: MessageTypeDefinition<_gatehouse_v1_QuotaWindowList, _gatehouse_v1_QuotaWindowList__Output>
      RefundAllocation: MessageTypeDefinition<_gatehouse_v1_RefundAllocation, _gatehouse_v1_RefundAllocation__Output>
      RefundTransactionRequest: MessageTypeDefinition<_gatehouse_v1_RefundTransactionRequest, _gatehouse_v1_RefundTransactionRequest__Output>
      RefundTransactionResponse: MessageTypeDefinition<_gatehouse_v1_RefundTransactionResponse, _gatehouse_v1_RefundTransactionResponse__Output>
      ReleaseHoldRequest: MessageTypeDefinition<_gatehouse_v1_ReleaseHoldRequest, _gatehouse_v1_ReleaseHoldRequest__Output>
      Remaining: MessageTypeDefinition<_gatehouse_v1_Remaining, _gatehouse_v1_Remaining__Output>
      ReplayBillingNotificationRequest: MessageTypeDefinition<_gatehouse_v1_ReplayBillingNotificationRequest, _gatehouse_v1_ReplayBillingNotificationRequest__Output>
      SetAppStoreSettingsRequest: MessageTypeDefinition<_gatehouse_v1_SetAppStoreSettingsRequest, _gatehouse_v1_SetAppStoreSettingsRequest__Output>
      SetStripeSettingsRequest: MessageTypeDefinition<_gatehouse_v1_SetStripeSettingsRequest, _gatehouse_v1_SetStripeSettingsRequest__Output>
      SettleHoldRequest: MessageTypeDefinition<_gatehouse_v1_SettleHoldRequest, _gatehouse_v1_SettleHoldRequest__Output>
      SettleHoldResponse: MessageTypeDefinition<_gatehouse_v1_SettleHoldResponse, _gatehouse_v1_SettleHoldResponse__Output>
      StripeEventRequest: MessageTypeDefinition<_gatehouse_v1_StripeEventRequest, _gatehouse_v1_StripeEventRequest__Output>
      StripeSettings: MessageTypeDefinition<_gatehouse_v1_StripeSettings, _gatehouse_v1_StripeSettings__Output>
      Subscription: MessageTypeDefinition<_gatehouse_v1_Subscription, _gatehouse_v1_Subscription__Output>
      Transaction: MessageTypeDefinition<_gatehouse_v1_Transaction, _gatehouse_v1_Transaction__Output>
      WindowUsage: MessageTypeDefinition<_gatehouse_v1_WindowUsage, _gatehouse_v1_WindowUsage__Output>
    }
  }
  google: {
    api: {
      CustomHttpPattern: MessageTypeDefinition<_google_api_CustomHttpPattern, _google_api_CustomHttpPattern__Output>
      FieldBehavior: EnumTypeDefinition
      Http: MessageTypeDefinition<_google_api_Http, _google_api_Http__Output>
      HttpRule: MessageTypeDefinition<_google_api_HttpRule, _google_api_HttpRule__Output>
    }
    protobuf: {
      DescriptorProto: MessageTypeDefinition<_google_protobuf_DescriptorProto, _google_protobuf_DescriptorProto__Output>
      Edition: EnumTypeDefinition
      EnumDescriptorProto: MessageTypeDefinition<_google_protobuf_EnumDescriptorProto, _google_protobuf_EnumDescriptorProto__Output>
      EnumOptions: MessageTypeDefinition<_google_protobuf_EnumOptions, _google_protobuf_EnumOptions__Output>
      EnumValueDescriptorProto: MessageTypeDefinition<_google_protobuf_EnumValueDescriptorProto, _google_protobuf_EnumValueDescriptorProto__Output>
      EnumValueOptions: MessageTypeDefinition<_google_protobuf_EnumValueOptions, _google_protobuf_EnumValueOptions__Output>
      ExtensionRangeOptions: MessageTypeDefinition<_google_protobuf_ExtensionRangeOptions, _google_protobuf_ExtensionRangeOptions__Output>
      FeatureSet: MessageTypeDefinition<_google_protobuf_FeatureSet, _google_protobuf_FeatureSet__Output>
      FeatureSetDefaults: MessageTypeDefinition<_google_protobuf_FeatureSetDefaults, _google_protobuf_FeatureSetDefaults__Output>
      FieldDescriptorProto: MessageTypeDefinition<_google_protobuf_FieldDescriptorProto, _google_protobuf_FieldDescriptorProto__Output>
      FieldOptions: MessageTypeDefinition<_google_protobuf_FieldOptions, _google_protobuf_FieldOptions__Output>
      FileDescriptorProto: MessageTypeDefinition<_google_protobuf_FileDescriptorProto, _google_protobuf_FileDescriptorProto__Output>
      FileDescriptorSet: MessageTypeDefinition<_google_protobuf_FileDescriptorSet, _google_protobuf_FileDescriptorSet__Output>
      FileOptions: MessageTypeDefinition<_google_protobuf_FileOptions, _google_protobuf_FileOptions__Output>
      GeneratedCodeInfo: MessageTypeDefinition<_google_protobuf_GeneratedCodeInfo, _google_protobuf_GeneratedCodeInfo__Output>
      MessageOptions: MessageTypeDefinition<_google_protobuf_MessageOptions, _google_protobuf_MessageOptions__Output>
      MethodDescriptorProto: MessageTypeDefinition<_google_protobuf_MethodDescriptorProto, _google_protobuf_MethodDescriptorProto__Output>
      MethodOptions: MessageTypeDefinition<_google_protobuf_MethodOptions, _google_protobuf_MethodOptions__Output>
      OneofDescriptorProto: MessageTypeDefinition<_google_protobuf_OneofDescriptorProto, _google_protobuf_OneofDescriptorProto__Output>
      OneofOptions: MessageTypeDefinition<_google_protobuf_OneofOptions, _google_protobuf_OneofOptions__Output>
      ServiceDescriptorProto: MessageTypeDefinition<_google_protobuf_ServiceDescriptorProto, _google_protobuf_ServiceDescriptorProto__Output>
      ServiceOptions: MessageTypeDefinition<_google_protobuf_ServiceOptions, _google_protobuf_ServiceOptions__Output>
      SourceCodeInfo: MessageTypeDefinition<_google_protobuf_SourceCodeInfo, _google_protobuf_SourceCodeInfo__Output>
      SymbolVisibility: EnumTypeDefinition
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
      UninterpretedOption: MessageTypeDefinition<_google_protobuf_UninterpretedOption, _google_protobuf_UninterpretedOption__Output>
    }
  }
}

