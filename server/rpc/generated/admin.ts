import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AccessRule as _gatehouse_v1_AccessRule, AccessRule__Output as _gatehouse_v1_AccessRule__Output } from './gatehouse/v1/AccessRule.ts';
import type { AdminServiceClient as _gatehouse_v1_AdminServiceClient, AdminServiceDefinition as _gatehouse_v1_AdminServiceDefinition } from './gatehouse/v1/AdminService.ts';
import type { ApiKey as _gatehouse_v1_ApiKey, ApiKey__Output as _gatehouse_v1_ApiKey__Output } from './gatehouse/v1/ApiKey.ts';
import type { AppleNotificationRequest as _gatehouse_v1_AppleNotificationRequest, AppleNotificationRequest__Output as _gatehouse_v1_AppleNotificationRequest__Output } from './gatehouse/v1/AppleNotificationRequest.ts';
import type { AppleNotificationResponse as _gatehouse_v1_AppleNotificationResponse, AppleNotificationResponse__Output as _gatehouse_v1_AppleNotificationResponse__Output } from './gatehouse/v1/AppleNotificationResponse.ts';
import type { AppleWebCallbackRequest as _gatehouse_v1_AppleWebCallbackRequest, AppleWebCallbackRequest__Output as _gatehouse_v1_AppleWebCallbackRequest__Output } from './gatehouse/v1/AppleWebCallbackRequest.ts';
import type { AppleWebCallbackResponse as _gatehouse_v1_AppleWebCallbackResponse, AppleWebCallbackResponse__Output as _gatehouse_v1_AppleWebCallbackResponse__Output } from './gatehouse/v1/AppleWebCallbackResponse.ts';
import type { AppleWebLoginRequest as _gatehouse_v1_AppleWebLoginRequest, AppleWebLoginRequest__Output as _gatehouse_v1_AppleWebLoginRequest__Output } from './gatehouse/v1/AppleWebLoginRequest.ts';
import type { AppleWebLoginResponse as _gatehouse_v1_AppleWebLoginResponse, AppleWebLoginResponse__Output as _gatehouse_v1_AppleWebLoginResponse__Output } from './gatehouse/v1/AppleWebLoginResponse.ts';
import type { AuditActor as _gatehouse_v1_AuditActor, AuditActor__Output as _gatehouse_v1_AuditActor__Output } from './gatehouse/v1/AuditActor.ts';
import type { AuditRecord as _gatehouse_v1_AuditRecord, AuditRecord__Output as _gatehouse_v1_AuditRecord__Output } from './gatehouse/v1/AuditRecord.ts';
import type { AuthServiceClient as _gatehouse_v1_AuthServiceClient, AuthServiceDefinition as _gatehouse_v1_AuthServiceDefinition } from './gatehouse/v1/AuthService.ts';
import type { AuthorizationServerMetadata as _gatehouse_v1_AuthorizationServerMetadata, AuthorizationServerMetadata__Output as _gatehouse_v1_AuthorizationServerMetadata__Output } from './gatehouse/v1/AuthorizationServerMetadata.ts';
import type { AuthorizeRequest as _gatehouse_v1_AuthorizeRequest, AuthorizeRequest__Output as _gatehouse_v1_AuthorizeRequest__Output } from './gatehouse/v1/AuthorizeRequest.ts';
import type { AuthorizeResponse as _gatehouse_v1_AuthorizeResponse, AuthorizeResponse__Output as _gatehouse_v1_AuthorizeResponse__Output } from './gatehouse/v1/AuthorizeResponse.ts';
import type { Client as _gatehouse_v1_Client, Client__Output as _gatehouse_v1_Client__Output } from './gatehouse/v1/Client.ts';
import type { CreateApiKeyRequest as _gatehouse_v1_CreateApiKeyRequest, CreateApiKeyRequest__Output as _gatehouse_v1_CreateApiKeyRequest__Output } from './gatehouse/v1/CreateApiKeyRequest.ts';
import type { CreateClientRequest as _gatehouse_v1_CreateClientRequest, CreateClientRequest__Output as _gatehouse_v1_CreateClientRequest__Output } from './gatehouse/v1/CreateClientRequest.ts';
import type { CreateRealmRequest as _gatehouse_v1_CreateRealmRequest, CreateRealmRequest__Output as _gatehouse_v1_CreateRealmRequest__Output } from './gatehouse/v1/CreateRealmRequest.ts';
import type { CreateUserRequest as _gatehouse_v1_CreateUserRequest, CreateUserRequest__Output as _gatehouse_v1_CreateUserRequest__Output } from './gatehouse/v1/CreateUserRequest.ts';
import type { CreateWebhookRequest as _gatehouse_v1_CreateWebhookRequest, CreateWebhookRequest__Output as _gatehouse_v1_CreateWebhookRequest__Output } from './gatehouse/v1/CreateWebhookRequest.ts';
import type { CreatedApiKey as _gatehouse_v1_CreatedApiKey, CreatedApiKey__Output as _gatehouse_v1_CreatedApiKey__Output } from './gatehouse/v1/CreatedApiKey.ts';
import type { DeleteMeRequest as _gatehouse_v1_DeleteMeRequest, DeleteMeRequest__Output as _gatehouse_v1_DeleteMeRequest__Output } from './gatehouse/v1/DeleteMeRequest.ts';
import type { DeleteUserRequest as _gatehouse_v1_DeleteUserRequest, DeleteUserRequest__Output as _gatehouse_v1_DeleteUserRequest__Output } from './gatehouse/v1/DeleteUserRequest.ts';
import type { DeletedAccount as _gatehouse_v1_DeletedAccount, DeletedAccount__Output as _gatehouse_v1_DeletedAccount__Output } from './gatehouse/v1/DeletedAccount.ts';
import type { DisableUserRequest as _gatehouse_v1_DisableUserRequest, DisableUserRequest__Output as _gatehouse_v1_DisableUserRequest__Output } from './gatehouse/v1/DisableUserRequest.ts';
import type { EnableUserRequest as _gatehouse_v1_EnableUserRequest, EnableUserRequest__Output as _gatehouse_v1_EnableUserRequest__Output } from './gatehouse/v1/EnableUserRequest.ts';
import type { ErrorCodes as _gatehouse_v1_ErrorCodes, ErrorCodes__Output as _gatehouse_v1_ErrorCodes__Output } from './gatehouse/v1/ErrorCodes.ts';
import type { FieldLimits as _gatehouse_v1_FieldLimits, FieldLimits__Output as _gatehouse_v1_FieldLimits__Output } from './gatehouse/v1/FieldLimits.ts';
import type { FullName as _gatehouse_v1_FullName, FullName__Output as _gatehouse_v1_FullName__Output } from './gatehouse/v1/FullName.ts';
import type { GetClientRequest as _gatehouse_v1_GetClientRequest, GetClientRequest__Output as _gatehouse_v1_GetClientRequest__Output } from './gatehouse/v1/GetClientRequest.ts';
import type { GetProviderRequest as _gatehouse_v1_GetProviderRequest, GetProviderRequest__Output as _gatehouse_v1_GetProviderRequest__Output } from './gatehouse/v1/GetProviderRequest.ts';
import type { GetRealmRequest as _gatehouse_v1_GetRealmRequest, GetRealmRequest__Output as _gatehouse_v1_GetRealmRequest__Output } from './gatehouse/v1/GetRealmRequest.ts';
import type { GetUserRequest as _gatehouse_v1_GetUserRequest, GetUserRequest__Output as _gatehouse_v1_GetUserRequest__Output } from './gatehouse/v1/GetUserRequest.ts';
import type { GetWebhookRequest as _gatehouse_v1_GetWebhookRequest, GetWebhookRequest__Output as _gatehouse_v1_GetWebhookRequest__Output } from './gatehouse/v1/GetWebhookRequest.ts';
import type { Identity as _gatehouse_v1_Identity, Identity__Output as _gatehouse_v1_Identity__Output } from './gatehouse/v1/Identity.ts';
import type { IntrospectRequest as _gatehouse_v1_IntrospectRequest, IntrospectRequest__Output as _gatehouse_v1_IntrospectRequest__Output } from './gatehouse/v1/IntrospectRequest.ts';
import type { IntrospectResponse as _gatehouse_v1_IntrospectResponse, IntrospectResponse__Output as _gatehouse_v1_IntrospectResponse__Output } from './gatehouse/v1/IntrospectResponse.ts';
import type { Jwk as _gatehouse_v1_Jwk, Jwk__Output as _gatehouse_v1_Jwk__Output } from './gatehouse/v1/Jwk.ts';
import type { JwkSet as _gatehouse_v1_JwkSet, JwkSet__Output as _gatehouse_v1_JwkSet__Output } from './gatehouse/v1/JwkSet.ts';
import type { JwksRequest as _gatehouse_v1_JwksRequest, JwksRequest__Output as _gatehouse_v1_JwksRequest__Output } from './gatehouse/v1/JwksRequest.ts';
import type { LinkMyIdentityRequest as _gatehouse_v1_LinkMyIdentityRequest, LinkMyIdentityRequest__Output as _gatehouse_v1_LinkMyIdentityRequest__Output } from './gatehouse/v1/LinkMyIdentityRequest.ts';
import type { LinkedIdentity as _gatehouse_v1_LinkedIdentity, LinkedIdentity__Output as _gatehouse_v1_LinkedIdentity__Output } from './gatehouse/v1/LinkedIdentity.ts';
import type { ListApiKeysRequest as _gatehouse_v1_ListApiKeysRequest, ListApiKeysRequest__Output as _gatehouse_v1_ListApiKeysRequest__Output } from './gatehouse/v1/ListApiKeysRequest.ts';
import type { ListApiKeysResponse as _gatehouse_v1_ListApiKeysResponse, ListApiKeysResponse__Output as _gatehouse_v1_ListApiKeysResponse__Output } from './gatehouse/v1/ListApiKeysResponse.ts';
import type { ListAuditRecordsRequest as _gatehouse_v1_ListAuditRecordsRequest, ListAuditRecordsRequest__Output as _gatehouse_v1_ListAuditRecordsRequest__Output } from './gatehouse/v1/ListAuditRecordsRequest.ts';
import type { ListAuditRecordsResponse as _gatehouse_v1_ListAuditRecordsResponse, ListAuditRecordsResponse__Output as _gatehouse_v1_ListAuditRecordsResponse__Output } from './gatehouse/v1/ListAuditRecordsResponse.ts';
import type { ListClientsRequest as _gatehouse_v1_ListClientsRequest, ListClientsRequest__Output as _gatehouse_v1_ListClientsRequest__Output } from './gatehouse/v1/ListClientsRequest.ts';
import type { ListClientsResponse as _gatehouse_v1_ListClientsResponse, ListClientsResponse__Output as _gatehouse_v1_ListClientsResponse__Output } from './gatehouse/v1/ListClientsResponse.ts';
import type { ListMyIdentitiesRequest as _gatehouse_v1_ListMyIdentitiesRequest, ListMyIdentitiesRequest__Output as _gatehouse_v1_ListMyIdentitiesRequest__Output } from './gatehouse/v1/ListMyIdentitiesRequest.ts';
import type { ListProvidersRequest as _gatehouse_v1_ListProvidersRequest, ListProvidersRequest__Output as _gatehouse_v1_ListProvidersRequest__Output } from './gatehouse/v1/ListProvidersRequest.ts';
import type { ListProvidersResponse as _gatehouse_v1_ListProvidersResponse, ListProvidersResponse__Output as _gatehouse_v1_ListProvidersResponse__Output } from './gatehouse/v1/ListProvidersResponse.ts';
import type { ListRealmsRequest as _gatehouse_v1_ListRealmsRequest, ListRealmsRequest__Output as _gatehouse_v1_ListRealmsRequest__Output } from './gatehouse/v1/ListRealmsRequest.ts';
import type { ListRealmsResponse as _gatehouse_v1_ListRealmsResponse, ListRealmsResponse__Output as _gatehouse_v1_ListRealmsResponse__Output } from './gatehouse/v1/ListRealmsResponse.ts';
import type { ListUsersRequest as _gatehouse_v1_ListUsersRequest, ListUsersRequest__Output as _gatehouse_v1_ListUsersRequest__Output } from './gatehouse/v1/ListUsersRequest.ts';
import type { ListUsersResponse as _gatehouse_v1_ListUsersResponse, ListUsersResponse__Output as _gatehouse_v1_ListUsersResponse__Output } from './gatehouse/v1/ListUsersResponse.ts';
import type { ListWebhookDeliveriesRequest as _gatehouse_v1_ListWebhookDeliveriesRequest, ListWebhookDeliveriesRequest__Output as _gatehouse_v1_ListWebhookDeliveriesRequest__Output } from './gatehouse/v1/ListWebhookDeliveriesRequest.ts';
import type { ListWebhookDeliveriesResponse as _gatehouse_v1_ListWebhookDeliveriesResponse, ListWebhookDeliveriesResponse__Output as _gatehouse_v1_ListWebhookDeliveriesResponse__Output } from './gatehouse/v1/ListWebhookDeliveriesResponse.ts';
import type { ListWebhooksRequest as _gatehouse_v1_ListWebhooksRequest, ListWebhooksRequest__Output as _gatehouse_v1_ListWebhooksRequest__Output } from './gatehouse/v1/ListWebhooksRequest.ts';
import type { ListWebhooksResponse as _gatehouse_v1_ListWebhooksResponse, ListWebhooksResponse__Output as _gatehouse_v1_ListWebhooksResponse__Output } from './gatehouse/v1/ListWebhooksResponse.ts';
import type { MetadataRequest as _gatehouse_v1_MetadataRequest, MetadataRequest__Output as _gatehouse_v1_MetadataRequest__Output } from './gatehouse/v1/MetadataRequest.ts';
import type { MyIdentities as _gatehouse_v1_MyIdentities, MyIdentities__Output as _gatehouse_v1_MyIdentities__Output } from './gatehouse/v1/MyIdentities.ts';
import type { NativeLoginRequest as _gatehouse_v1_NativeLoginRequest, NativeLoginRequest__Output as _gatehouse_v1_NativeLoginRequest__Output } from './gatehouse/v1/NativeLoginRequest.ts';
import type { NativeLoginResponse as _gatehouse_v1_NativeLoginResponse, NativeLoginResponse__Output as _gatehouse_v1_NativeLoginResponse__Output } from './gatehouse/v1/NativeLoginResponse.ts';
import type { Provider as _gatehouse_v1_Provider, Provider__Output as _gatehouse_v1_Provider__Output } from './gatehouse/v1/Provider.ts';
import type { PutProviderRequest as _gatehouse_v1_PutProviderRequest, PutProviderRequest__Output as _gatehouse_v1_PutProviderRequest__Output } from './gatehouse/v1/PutProviderRequest.ts';
import type { Realm as _gatehouse_v1_Realm, Realm__Output as _gatehouse_v1_Realm__Output } from './gatehouse/v1/Realm.ts';
import type { RedeliverWebhookRequest as _gatehouse_v1_RedeliverWebhookRequest, RedeliverWebhookRequest__Output as _gatehouse_v1_RedeliverWebhookRequest__Output } from './gatehouse/v1/RedeliverWebhookRequest.ts';
import type { RevokeApiKeyRequest as _gatehouse_v1_RevokeApiKeyRequest, RevokeApiKeyRequest__Output as _gatehouse_v1_RevokeApiKeyRequest__Output } from './gatehouse/v1/RevokeApiKeyRequest.ts';
import type { RevokeRequest as _gatehouse_v1_RevokeRequest, RevokeRequest__Output as _gatehouse_v1_RevokeRequest__Output } from './gatehouse/v1/RevokeRequest.ts';
import type { RevokeResponse as _gatehouse_v1_RevokeResponse, RevokeResponse__Output as _gatehouse_v1_RevokeResponse__Output } from './gatehouse/v1/RevokeResponse.ts';
import type { RotateSigningKeyRequest as _gatehouse_v1_RotateSigningKeyRequest, RotateSigningKeyRequest__Output as _gatehouse_v1_RotateSigningKeyRequest__Output } from './gatehouse/v1/RotateSigningKeyRequest.ts';
import type { SignOutUserRequest as _gatehouse_v1_SignOutUserRequest, SignOutUserRequest__Output as _gatehouse_v1_SignOutUserRequest__Output } from './gatehouse/v1/SignOutUserRequest.ts';
import type { SignOutUserResponse as _gatehouse_v1_SignOutUserResponse, SignOutUserResponse__Output as _gatehouse_v1_SignOutUserResponse__Output } from './gatehouse/v1/SignOutUserResponse.ts';
import type { SigningKeyRotation as _gatehouse_v1_SigningKeyRotation, SigningKeyRotation__Output as _gatehouse_v1_SigningKeyRotation__Output } from './gatehouse/v1/SigningKeyRotation.ts';
import type { StringList as _gatehouse_v1_StringList, StringList__Output as _gatehouse_v1_StringList__Output } from './gatehouse/v1/StringList.ts';
import type { TokenRequest as _gatehouse_v1_TokenRequest, TokenRequest__Output as _gatehouse_v1_TokenRequest__Output } from './gatehouse/v1/TokenRequest.ts';
import type { TokenResponse as _gatehouse_v1_TokenResponse, TokenResponse__Output as _gatehouse_v1_TokenResponse__Output } from './gatehouse/v1/TokenResponse.ts';
import type { UnlinkMyIdentityRequest as _gatehouse_v1_UnlinkMyIdentityRequest, UnlinkMyIdentityRequest__Output as _gatehouse_v1_UnlinkMyIdentityRequest__Output } from './gatehouse/v1/UnlinkMyIdentityRequest.ts';
import type { UnlinkUserIdentityRequest as _gatehouse_v1_UnlinkUserIdentityRequest, UnlinkUserIdentityRequest__Output as _gatehouse_v1_UnlinkUserIdentityRequest__Output } from './gatehouse/v1/UnlinkUserIdentityRequest.ts';
import type { UpdateClientRequest as _gatehouse_v1_UpdateClientRequest, UpdateClientRequest__Output as _gatehouse_v1_UpdateClientRequest__Output } from './gatehouse/v1/UpdateClientRequest.ts';
import type { UpdateWebhookRequest as _gatehouse_v1_UpdateWebhookRequest, UpdateWebhookRequest__Output as _gatehouse_v1_UpdateWebhookRequest__Output } from './gatehouse/v1/UpdateWebhookRequest.ts';
import type { User as _gatehouse_v1_User, User__Output as _gatehouse_v1_User__Output } from './gatehouse/v1/User.ts';
import type { UserInfoRequest as _gatehouse_v1_UserInfoRequest, UserInfoRequest__Output as _gatehouse_v1_UserInfoRequest__Output } from './gatehouse/v1/UserInfoRequest.ts';
import type { UserInfoResponse as _gatehouse_v1_UserInfoResponse, UserInfoResponse__Output as _gatehouse_v1_UserInfoResponse__Output } from './gatehouse/v1/UserInfoResponse.ts';
import type { Webhook as _gatehouse_v1_Webhook, Webhook__Output as _gatehouse_v1_Webhook__Output } from './gatehouse/v1/Webhook.ts';
import type { WebhookAttempt as _gatehouse_v1_WebhookAttempt, WebhookAttempt__Output as _gatehouse_v1_WebhookAttempt__Output } from './gatehouse/v1/WebhookAttempt.ts';
import type { WebhookDelivery as _gatehouse_v1_WebhookDelivery, WebhookDelivery__Output as _gatehouse_v1_WebhookDelivery__Output } from './gatehouse/v1/WebhookDelivery.ts';
import type { WebhookTestEvent as _gatehouse_v1_WebhookTestEvent, WebhookTestEvent__Output as _gatehouse_v1_WebhookTestEvent__Output } from './gatehouse/v1/WebhookTestEvent.ts';
import type { WhoAmIRequest as _gatehouse_v1_WhoAmIRequest, WhoAmIRequest__Output as _gatehouse_v1_WhoAmIRequest__Output } from './gatehouse/v1/WhoAmIRequest.ts';
import type { WhoAmIResponse as _gatehouse_v1_WhoAmIResponse, WhoAmIResponse__Output as _gatehouse_v1_WhoAmIResponse__Output } from './gatehouse/v1/WhoAmIResponse.ts';
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
      AdminService: SubtypeConstructor<typeof grpc.Client, _gatehouse_v1_AdminServiceClient> & { service: _gatehouse_v1_AdminServiceDefinition }
      ApiKey: MessageTypeDefinition<_gatehouse_v1_ApiKey, _gatehouse_v1_ApiKey__Output>
      AppleNotificationRequest: MessageTypeDefinition<_gatehouse_v1_AppleNotificationRequest, _gatehouse_v1_AppleNotificationRequest__Output>
      AppleNotificationResponse: MessageTypeDefinition<_gatehouse_v1_AppleNotificationResponse, _gatehouse_v1_AppleNotificationResponse__Output>
      AppleWebCallbackRequest: MessageTypeDefinition<_gatehouse_v1_AppleWebCallbackRequest, _gatehouse_v1_AppleWebCallbackRequest__Output>
      AppleWebCallbackResponse: MessageTypeDefinition<_gatehouse_v1_AppleWebCallbackResponse, _gatehouse_v1_AppleWebCallbackResponse__Output>
      AppleWebLoginRequest: MessageTypeDefinition<_gatehouse_v1_AppleWebLoginRequest, _gatehouse_v1_AppleWebLoginRequest__Output>
      AppleWebLoginResponse: MessageTypeDefinition<_gatehouse_v1_AppleWebLoginResponse, _gatehouse_v1_AppleWebLoginResponse__Output>
      AuditActor: MessageTypeDefinition<_gatehouse_v1_AuditActor, _gatehouse_v1_AuditActor__Output>
      AuditRecord: MessageTypeDefinition<_gatehouse_v1_AuditRecord, _gatehouse_v1_AuditRecord__Output>
      AuthService: SubtypeConstructor<typeof grpc.Client, _gatehouse_v1_AuthServiceClient> & { service: _gatehouse_v1_AuthServiceDefinition }
      AuthorizationServerMetadata: MessageTypeDefinition<_gatehouse_v1_AuthorizationServerMetadata, _gatehouse_v1_AuthorizationServerMetadata__Output>
      AuthorizeRequest: MessageTypeDefinition<_gatehouse_v1_AuthorizeRequest, _gatehouse_v1_AuthorizeRequest__Output>
      AuthorizeResponse: MessageTypeDefinition<_gatehouse_v1_AuthorizeResponse, _gatehouse_v1_AuthorizeResponse__Output>
      Client: MessageTypeDefinition<_gatehouse_v1_Client, _gatehouse_v1_Client__Output>
      CreateApiKeyRequest: MessageTypeDefinition<_gatehouse_v1_CreateApiKeyRequest, _gatehouse_v1_CreateApiKeyRequest__Output>
      CreateClientRequest: MessageTypeDefinition<_gatehouse_v1_CreateClientRequest, _gatehouse_v1_CreateClientRequest__Output>
      CreateRealmRequest: MessageTypeDefinition<_gatehouse_v1_CreateRealmRequest, _gatehouse_v1_CreateRealmRequest__Output>
      CreateUserRequest: MessageTypeDefinition<_gatehouse_v1_CreateUserRequest, _gatehouse_v1_CreateUserRequest__Output>
      CreateWebhookRequest: MessageTypeDefinition<_gatehouse_v1_CreateWebhookRequest, _gatehouse_v1_CreateWebhookRequest__Output>
      CreatedApiKey: MessageTypeDefinition<_gatehouse_v1_CreatedApiKey, _gatehouse_v1_CreatedApiKey__Output>
      DeleteMeRequest: MessageTypeDefinition<_gatehouse_v1_DeleteMeRequest, _gatehouse_v1_DeleteMeRequest__Output>
      DeleteUserRequest: MessageTypeDefinition<_gatehouse_v1_DeleteUserRequest, _gatehouse_v1_DeleteUserRequest__Output>
      DeletedAccount: MessageTypeDefinition<_gatehouse_v1_DeletedAccount, _gatehouse_v1_DeletedAccount__Output>
      DisableUserRequest: MessageTypeDefinition<_gatehouse_v1_DisableUserRequest, _gatehouse_v1_DisableUserRequest__Output>
      EnableUserRequest: MessageTypeDefinition<_gatehouse_v1_EnableUserRequest, _gatehouse_v1_EnableUserRequest__Output>
      ErrorCodes: MessageTypeDefinition<_gatehouse_v1_ErrorCodes, _gatehouse_v1_ErrorCodes__Output>
      FieldLimits: MessageTypeDefinition<_gatehouse_v1_FieldLimits, _gatehouse_v1_FieldLimits__Output>
      FullName: MessageTypeDefinition<_gatehouse_v1_FullName, _gatehouse_v1_FullName__Output>
      GetClientRequest: MessageTypeDefinition<_gatehouse_v1_GetClientRequest, _gatehouse_v1_GetClientRequest__Output>
      GetProviderRequest: MessageTypeDefinition<_gatehouse_v1_GetProviderRequest, _gatehouse_v1_GetProviderRequest__Output>
      GetRealmRequest: MessageTypeDefinition<_gatehouse_v1_GetRealmRequest, _gatehouse_v1_GetRealmRequest__Output>
      GetUserRequest: MessageTypeDefinition<_gatehouse_v1_GetUserRequest, _gatehouse_v1_GetUserRequest__Output>
      GetWebhookRequest: MessageTypeDefinition<_gatehouse_v1_GetWebhookRequest, _gatehouse_v1_GetWebhookRequest__Output>
      Identity: MessageTypeDefinition<_gatehouse_v1_Identity, _gatehouse_v1_Identity__Output>
      IntrospectRequest: MessageTypeDefinition<_gatehouse_v1_IntrospectRequest, _gatehouse_v1_IntrospectRequest__Output>
      IntrospectResponse: MessageTypeDefinition<_gatehouse_v1_IntrospectResponse, _gatehouse_v1_IntrospectResponse__Output>
      Jwk: MessageTypeDefinition<_gatehouse_v1_Jwk, _gatehouse_v1_Jwk__Output>
      JwkSet: MessageTypeDefinition<_gatehouse_v1_JwkSet, _gatehouse_v1_JwkSet__Output>
      JwksRequest: MessageTypeDefinition<_gatehouse_v1_JwksRequest, _gatehouse_v1_JwksRequest__Output>
      LinkMyIdentityRequest: MessageTypeDefinition<_gatehouse_v1_LinkMyIdentityRequest, _gatehouse_v1_LinkMyIdentityRequest__Output>
      LinkedIdentity: MessageTypeDefinition<_gatehouse_v1_LinkedIdentity, _gatehouse_v1_LinkedIdentity__Output>
      ListApiKeysRequest: MessageTypeDefinition<_gatehouse_v1_ListApiKeysRequest, _gatehouse_v1_ListApiKeysRequest__Output>
      ListApiKeysResponse: MessageTypeDefinition<_gatehouse_v1_ListApiKeysResponse, _gatehouse_v1_ListApiKeysResponse__Output>
      ListAuditRecordsRequest: MessageTypeDefinition<_gatehouse_v1_ListAuditRecordsRequest, _gatehouse_v1_ListAuditRecordsRequest__Output>
      ListAuditRecordsResponse: MessageTypeDefinition<_gatehouse_v1_ListAuditRecordsResponse, _gatehouse_v1_ListAuditRecordsResponse__Output>
      ListClientsRequest: MessageTypeDefinition<_gatehouse_v1_ListClientsRequest, _gatehouse_v1_ListClientsRequest__Output>
      ListClientsResponse: MessageTypeDefinition<_gatehouse_v1_ListClientsResponse, _gatehouse_v1_ListClientsResponse__Output>
      ListMyIdentitiesRequest: MessageTypeDefinition<_gatehouse_v1_ListMyIdentitiesRequest, _gatehouse_v1_ListMyIdentitiesRequest__Output>
      ListProvidersRequest: MessageTypeDefinition<_gatehouse_v1_ListProvidersRequest, _gatehouse_v1_ListProvidersRequest__Output>
      ListProvidersResponse: MessageTypeDefinition<_gatehouse_v1_ListProvidersResponse, _gatehouse_v1_ListProvidersResponse__Output>
      ListRealmsRequest: MessageTypeDefinition<_gatehouse_v1_ListRealmsRequest, _gatehouse_v1_ListRealmsRequest__Output>
      ListRealmsResponse: MessageTypeDefinition<_gatehouse_v1_ListRealmsResponse, _gatehouse_v1_ListRealmsResponse__Output>
      ListUsersRequest: MessageTypeDefinition<_gatehouse_v1_ListUsersRequest, _gatehouse_v1_ListUsersRequest__Output>
      ListUsersResponse: MessageTypeDefinition<_gatehouse_v1_ListUsersResponse, _gatehouse_v1_ListUsersResponse__Output>
      ListWebhookDeliveriesRequest: MessageTypeDefinition<_gatehouse_v1_ListWebhookDeliveriesRequest, _gatehouse_v1_ListWebhookDeliveriesRequest__Output>
      ListWebhookDeliveriesResponse: MessageTypeDefinition<_gatehouse_v1_ListWebhookDeliveriesResponse, _gatehouse_v1_ListWebhookDeliveriesResponse__Output>
      ListWebhooksRequest: MessageTypeDefinition<_gatehouse_v1_ListWebhooksRequest, _gatehouse_v1_ListWebhooksRequest__Output>
      ListWebhooksResponse: MessageTypeDefinition<_gatehouse_v1_ListWebhooksResponse, _gatehouse_v1_ListWebhooksResponse__Output>
      MetadataRequest: MessageTypeDefinition<_gatehouse_v1_MetadataRequest, _gatehouse_v1_MetadataRequest__Output>
      MyIdentities: MessageTypeDefinition<_gatehouse_v1_MyIdentities, _gatehouse_v1_MyIdentities__Output>
      NativeLoginRequest: MessageTypeDefinition<_gatehouse_v1_NativeLoginRequest, _gatehouse_v1_NativeLoginRequest__Output>
      NativeLoginResponse: MessageTypeDefinition<_gatehouse_v1_NativeLoginResponse, _gatehouse_v1_NativeLoginResponse__Output>
      Provider: MessageTypeDefinition<_gatehouse_v1_Provider, _gatehouse_v1_Provider__Output>
      PutProviderRequest: MessageTypeDefinition<_gatehouse_v1_PutProviderRequest, _gatehouse_v1_PutProviderRequest__Output>
      Realm: MessageTypeDefinition<_gatehouse_v1_Realm, _gatehouse_v1_Realm__Output>
      RedeliverWebhookRequest: MessageTypeDefinition<_gatehouse_v1_RedeliverWebhookRequest, _gatehouse_v1_RedeliverWebhookRequest__Output>
      RevokeApiKeyRequest: MessageTypeDefinition<_gatehouse_v1_RevokeApiKeyRequest, _gatehouse_v1_RevokeApiKeyRequest__Output>
      RevokeRequest: MessageTypeDefinition<_gatehouse_v1_RevokeRequest, _gatehouse_v1_RevokeRequest__Output>
      RevokeResponse: MessageTypeDefinition<_gatehouse_v1_RevokeResponse, _gatehouse_v1_RevokeResponse__Output>
      RotateSigningKeyRequest: MessageTypeDefinition<_gatehouse_v1_RotateSigningKeyRequest, _gatehouse_v1_RotateSigningKeyRequest__Output>
      SignOutUserRequest: MessageTypeDefinition<_gatehouse_v1_SignOutUserRequest, _gatehouse_v1_SignOutUserRequest__Output>
      SignOutUserResponse: MessageTypeDefinition<_gatehouse_v1_SignOutUserResponse, _gatehouse_v1_SignOutUserResponse__Output>
      SigningKeyRotation: MessageTypeDefinition<_gatehouse_v1_SigningKeyRotation, _gatehouse_v1_SigningKeyRotation__Output>
      StringList: MessageTypeDefinition<_gatehouse_v1_StringList, _gatehouse_v1_StringList__Output>
      TokenRequest: MessageTypeDefinition<_gatehouse_v1_TokenRequest, _gatehouse_v1_TokenRequest__Output>
      TokenResponse: MessageTypeDefinition<_gatehouse_v1_TokenResponse, _gatehouse_v1_TokenResponse__Output>
      UnlinkMyIdentityRequest: MessageTypeDefinition<_gatehouse_v1_UnlinkMyIdentityRequest, _gatehouse_v1_UnlinkMyIdentityRequest__Output>
      UnlinkUserIdentityRequest: MessageTypeDefinition<_gatehouse_v1_UnlinkUserIdentityRequest, _gatehouse_v1_UnlinkUserIdentityRequest__Output>
      UpdateClientRequest: MessageTypeDefinition<_gatehouse_v1_UpdateClientRequest, _gatehouse_v1_UpdateClientRequest__Output>
      UpdateWebhookRequest: MessageTypeDefinition<_gatehouse_v1_UpdateWebhookRequest, _gatehouse_v1_UpdateWebhookRequest__Output>
      User: MessageTypeDefinition<_gatehouse_v1_User, _gatehouse_v1_User__Output>
      UserInfoRequest: MessageTypeDefinition<_gatehouse_v1_UserInfoRequest, _gatehouse_v1_UserInfoRequest__Output>
      UserInfoResponse: MessageTypeDefinition<_gatehouse_v1_UserInfoResponse, _gatehouse_v1_UserInfoResponse__Output>
      Webhook: MessageTypeDefinition<_gatehouse_v1_Webhook, _gatehouse_v1_Webhook__Output>
      WebhookAttempt: MessageTypeDefinition<_gatehouse_v1_WebhookAttempt, _gatehouse_v1_WebhookAttempt__Output>
      WebhookDelivery: MessageTypeDefinition<_gatehouse_v1_WebhookDelivery, _gatehouse_v1_WebhookDelivery__Output>
      WebhookTestEvent: MessageTypeDefinition<_gatehouse_v1_WebhookTestEvent, _gatehouse_v1_WebhookTestEvent__Output>
      WhoAmIRequest: MessageTypeDefinition<_gatehouse_v1_WhoAmIRequest, _gatehouse_v1_WhoAmIRequest__Output>
      WhoAmIResponse: MessageTypeDefinition<_gatehouse_v1_WhoAmIResponse, _gatehouse_v1_WhoAmIResponse__Output>
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

