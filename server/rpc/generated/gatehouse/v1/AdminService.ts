// Original file: gatehouse/v1/admin.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ApiKey as _gatehouse_v1_ApiKey, ApiKey__Output as _gatehouse_v1_ApiKey__Output } from '../../gatehouse/v1/ApiKey.ts';
import type { Client as _gatehouse_v1_Client, Client__Output as _gatehouse_v1_Client__Output } from '../../gatehouse/v1/Client.ts';
import type { CreateApiKeyRequest as _gatehouse_v1_CreateApiKeyRequest, CreateApiKeyRequest__Output as _gatehouse_v1_CreateApiKeyRequest__Output } from '../../gatehouse/v1/CreateApiKeyRequest.ts';
import type { CreateClientRequest as _gatehouse_v1_CreateClientRequest, CreateClientRequest__Output as _gatehouse_v1_CreateClientRequest__Output } from '../../gatehouse/v1/CreateClientRequest.ts';
import type { CreateRealmRequest as _gatehouse_v1_CreateRealmRequest, CreateRealmRequest__Output as _gatehouse_v1_CreateRealmRequest__Output } from '../../gatehouse/v1/CreateRealmRequest.ts';
import type { CreateUserRequest as _gatehouse_v1_CreateUserRequest, CreateUserRequest__Output as _gatehouse_v1_CreateUserRequest__Output } from '../../gatehouse/v1/CreateUserRequest.ts';
import type { CreateWebhookRequest as _gatehouse_v1_CreateWebhookRequest, CreateWebhookRequest__Output as _gatehouse_v1_CreateWebhookRequest__Output } from '../../gatehouse/v1/CreateWebhookRequest.ts';
import type { CreatedApiKey as _gatehouse_v1_CreatedApiKey, CreatedApiKey__Output as _gatehouse_v1_CreatedApiKey__Output } from '../../gatehouse/v1/CreatedApiKey.ts';
import type { DeleteUserRequest as _gatehouse_v1_DeleteUserRequest, DeleteUserRequest__Output as _gatehouse_v1_DeleteUserRequest__Output } from '../../gatehouse/v1/DeleteUserRequest.ts';
import type { DeletedAccount as _gatehouse_v1_DeletedAccount, DeletedAccount__Output as _gatehouse_v1_DeletedAccount__Output } from '../../gatehouse/v1/DeletedAccount.ts';
import type { DisableUserRequest as _gatehouse_v1_DisableUserRequest, DisableUserRequest__Output as _gatehouse_v1_DisableUserRequest__Output } from '../../gatehouse/v1/DisableUserRequest.ts';
import type { EnableUserRequest as _gatehouse_v1_EnableUserRequest, EnableUserRequest__Output as _gatehouse_v1_EnableUserRequest__Output } from '../../gatehouse/v1/EnableUserRequest.ts';
import type { GetClientRequest as _gatehouse_v1_GetClientRequest, GetClientRequest__Output as _gatehouse_v1_GetClientRequest__Output } from '../../gatehouse/v1/GetClientRequest.ts';
import type { GetProviderRequest as _gatehouse_v1_GetProviderRequest, GetProviderRequest__Output as _gatehouse_v1_GetProviderRequest__Output } from '../../gatehouse/v1/GetProviderRequest.ts';
import type { GetRealmRequest as _gatehouse_v1_GetRealmRequest, GetRealmRequest__Output as _gatehouse_v1_GetRealmRequest__Output } from '../../gatehouse/v1/GetRealmRequest.ts';
import type { GetUserRequest as _gatehouse_v1_GetUserRequest, GetUserRequest__Output as _gatehouse_v1_GetUserRequest__Output } from '../../gatehouse/v1/GetUserRequest.ts';
import type { GetWebhookRequest as _gatehouse_v1_GetWebhookRequest, GetWebhookRequest__Output as _gatehouse_v1_GetWebhookRequest__Output } from '../../gatehouse/v1/GetWebhookRequest.ts';
import type { ListApiKeysRequest as _gatehouse_v1_ListApiKeysRequest, ListApiKeysRequest__Output as _gatehouse_v1_ListApiKeysRequest__Output } from '../../gatehouse/v1/ListApiKeysRequest.ts';
import type { ListApiKeysResponse as _gatehouse_v1_ListApiKeysResponse, ListApiKeysResponse__Output as _gatehouse_v1_ListApiKeysResponse__Output } from '../../gatehouse/v1/ListApiKeysResponse.ts';
import type { ListAuditRecordsRequest as _gatehouse_v1_ListAuditRecordsRequest, ListAuditRecordsRequest__Output as _gatehouse_v1_ListAuditRecordsRequest__Output } from '../../gatehouse/v1/ListAuditRecordsRequest.ts';
import type { ListAuditRecordsResponse as _gatehouse_v1_ListAuditRecordsResponse, ListAuditRecordsResponse__Output as _gatehouse_v1_ListAuditRecordsResponse__Output } from '../../gatehouse/v1/ListAuditRecordsResponse.ts';
import type { ListClientsRequest as _gatehouse_v1_ListClientsRequest, ListClientsRequest__Output as _gatehouse_v1_ListClientsRequest__Output } from '../../gatehouse/v1/ListClientsRequest.ts';
import type { ListClientsResponse as _gatehouse_v1_ListClientsResponse, ListClientsResponse__Output as _gatehouse_v1_ListClientsResponse__Output } from '../../gatehouse/v1/ListClientsResponse.ts';
import type { ListProvidersRequest as _gatehouse_v1_ListProvidersRequest, ListProvidersRequest__Output as _gatehouse_v1_ListProvidersRequest__Output } from '../../gatehouse/v1/ListProvidersRequest.ts';
import type { ListProvidersResponse as _gatehouse_v1_ListProvidersResponse, ListProvidersResponse__Output as _gatehouse_v1_ListProvidersResponse__Output } from '../../gatehouse/v1/ListProvidersResponse.ts';
import type { ListRealmsRequest as _gatehouse_v1_ListRealmsRequest, ListRealmsRequest__Output as _gatehouse_v1_ListRealmsRequest__Output } from '../../gatehouse/v1/ListRealmsRequest.ts';
import type { ListRealmsResponse as _gatehouse_v1_ListRealmsResponse, ListRealmsResponse__Output as _gatehouse_v1_ListRealmsResponse__Output } from '../../gatehouse/v1/ListRealmsResponse.ts';
import type { ListUsersRequest as _gatehouse_v1_ListUsersRequest, ListUsersRequest__Output as _gatehouse_v1_ListUsersRequest__Output } from '../../gatehouse/v1/ListUsersRequest.ts';
import type { ListUsersResponse as _gatehouse_v1_ListUsersResponse, ListUsersResponse__Output as _gatehouse_v1_ListUsersResponse__Output } from '../../gatehouse/v1/ListUsersResponse.ts';
import type { ListWebhookDeliveriesRequest as _gatehouse_v1_ListWebhookDeliveriesRequest, ListWebhookDeliveriesRequest__Output as _gatehouse_v1_ListWebhookDeliveriesRequest__Output } from '../../gatehouse/v1/ListWebhookDeliveriesRequest.ts';
import type { ListWebhookDeliveriesResponse as _gatehouse_v1_ListWebhookDeliveriesResponse, ListWebhookDeliveriesResponse__Output as _gatehouse_v1_ListWebhookDeliveriesResponse__Output } from '../../gatehouse/v1/ListWebhookDeliveriesResponse.ts';
import type { ListWebhooksRequest as _gatehouse_v1_ListWebhooksRequest, ListWebhooksRequest__Output as _gatehouse_v1_ListWebhooksRequest__Output } from '../../gatehouse/v1/ListWebhooksRequest.ts';
import type { ListWebhooksResponse as _gatehouse_v1_ListWebhooksResponse, ListWebhooksResponse__Output as _gatehouse_v1_ListWebhooksResponse__Output } from '../../gatehouse/v1/ListWebhooksResponse.ts';
import type { Provider as _gatehouse_v1_Provider, Provider__Output as _gatehouse_v1_Provider__Output } from '../../gatehouse/v1/Provider.ts';
import type { PutProviderRequest as _gatehouse_v1_PutProviderRequest, PutProviderRequest__Output as _gatehouse_v1_PutProviderRequest__Output } from '../../gatehouse/v1/PutProviderRequest.ts';
import type { Realm as _gatehouse_v1_Realm, Realm__Output as _gatehouse_v1_Realm__Output } from '../../gatehouse/v1/Realm.ts';
import type { RedeliverWebhookRequest as _gatehouse_v1_RedeliverWebhookRequest, RedeliverWebhookRequest__Output as _gatehouse_v1_RedeliverWebhookRequest__Output } from '../../gatehouse/v1/RedeliverWebhookRequest.ts';
import type { RevokeApiKeyRequest as _gatehouse_v1_RevokeApiKeyRequest, RevokeApiKeyRequest__Output as _gatehouse_v1_RevokeApiKeyRequest__Output } from '../../gatehouse/v1/RevokeApiKeyRequest.ts';
import type { RotateSigningKeyRequest as _gatehouse_v1_RotateSigningKeyRequest, RotateSigningKeyRequest__Output as _gatehouse_v1_RotateSigningKeyRequest__Output } from '../../gatehouse/v1/RotateSigningKeyRequest.ts';
import type { SignOutUserRequest as _gatehouse_v1_SignOutUserRequest, SignOutUserRequest__Output as _gatehouse_v1_SignOutUserRequest__Output } from '../../gatehouse/v1/SignOutUserRequest.ts';
import type { SignOutUserResponse as _gatehouse_v1_SignOutUserResponse, SignOutUserResponse__Output as _gatehouse_v1_SignOutUserResponse__Output } from '../../gatehouse/v1/SignOutUserResponse.ts';
import type { SigningKeyRotation as _gatehouse_v1_SigningKeyRotation, SigningKeyRotation__Output as _gatehouse_v1_SigningKeyRotation__Output } from '../../gatehouse/v1/SigningKeyRotation.ts';
import type { UnlinkUserIdentityRequest as _gatehouse_v1_UnlinkUserIdentityRequest, UnlinkUserIdentityRequest__Output as _gatehouse_v1_UnlinkUserIdentityRequest__Output } from '../../gatehouse/v1/UnlinkUserIdentityRequest.ts';
import type { UpdateClientRequest as _gatehouse_v1_UpdateClientRequest, UpdateClientRequest__Output as _gatehouse_v1_UpdateClientRequest__Output } from '../../gatehouse/v1/UpdateClientRequest.ts';
import type { UpdateWebhookRequest as _gatehouse_v1_UpdateWebhookRequest, UpdateWebhookRequest__Output as _gatehouse_v1_UpdateWebhookRequest__Output } from '../../gatehouse/v1/UpdateWebhookRequest.ts';
import type { User as _gatehouse_v1_User, User__Output as _gatehouse_v1_User__Output } from '../../gatehouse/v1/User.ts';
import type { Webhook as _gatehouse_v1_Webhook, Webhook__Output as _gatehouse_v1_Webhook__Output } from '../../gatehouse/v1/Webhook.ts';
import type { WebhookDelivery as _gatehouse_v1_WebhookDelivery, WebhookDelivery__Output as _gatehouse_v1_WebhookDelivery__Output } from '../../gatehouse/v1/WebhookDelivery.ts';
import type { WebhookTestEvent as _gatehouse_v1_WebhookTestEvent, WebhookTestEvent__Output as _gatehouse_v1_WebhookTestEvent__Output } from '../../gatehouse/v1/WebhookTestEvent.ts';
import type { WhoAmIRequest as _gatehouse_v1_WhoAmIRequest, WhoAmIRequest__Output as _gatehouse_v1_WhoAmIRequest__Output } from '../../gatehouse/v1/WhoAmIRequest.ts';
import type { WhoAmIResponse as _gatehouse_v1_WhoAmIResponse, WhoAmIResponse__Output as _gatehouse_v1_WhoAmIResponse__Output } from '../../gatehouse/v1/WhoAmIResponse.ts';

export interface AdminServiceClient extends grpc.Client {
  CreateApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _gatehouse_v1_CreateApiKeyRequest, callback: grpc.requestCallback<_gatehouse_v1_CreatedApiKey__Output>): grpc.ClientUnaryCall;
  
  CreateClient(argument: _gatehouse_v1_CreateClientRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  CreateClient(argument: _gatehouse_v1_CreateClientRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  CreateClient(argument: _gatehouse_v1_CreateClientRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  CreateClient(argument: _gatehouse_v1_CreateClientRequest, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  createClient(argument: _gatehouse_v1_CreateClientRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  createClient(argument: _gatehouse_v1_CreateClientRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  createClient(argument: _gatehouse_v1_CreateClientRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  createClient(argument: _gatehouse_v1_CreateClientRequest, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  
  CreateRealm(argument: _gatehouse_v1_CreateRealmRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  CreateRealm(argument: _gatehouse_v1_CreateRealmRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  CreateRealm(argument: _gatehouse_v1_CreateRealmRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  CreateRealm(argument: _gatehouse_v1_CreateRealmRequest, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  createRealm(argument: _gatehouse_v1_CreateRealmRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  createRealm(argument: _gatehouse_v1_CreateRealmRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  createRealm(argument: _gatehouse_v1_CreateRealmRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  createRealm(argument: _gatehouse_v1_CreateRealmRequest, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  
  CreateUser(argument: _gatehouse_v1_CreateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  CreateUser(argument: _gatehouse_v1_CreateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  CreateUser(argument: _gatehouse_v1_CreateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  CreateUser(argument: _gatehouse_v1_CreateUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  createUser(argument: _gatehouse_v1_CreateUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  createUser(argument: _gatehouse_v1_CreateUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  createUser(argument: _gatehouse_v1_CreateUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  createUser(argument: _gatehouse_v1_CreateUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  
  CreateWebhook(argument: _gatehouse_v1_CreateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _gatehouse_v1_CreateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _gatehouse_v1_CreateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _gatehouse_v1_CreateWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _gatehouse_v1_CreateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _gatehouse_v1_CreateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _gatehouse_v1_CreateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _gatehouse_v1_CreateWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  DeleteUser(argument: _gatehouse_v1_DeleteUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  DeleteUser(argument: _gatehouse_v1_DeleteUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  DeleteUser(argument: _gatehouse_v1_DeleteUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  DeleteUser(argument: _gatehouse_v1_DeleteUserRequest, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteUser(argument: _gatehouse_v1_DeleteUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteUser(argument: _gatehouse_v1_DeleteUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteUser(argument: _gatehouse_v1_DeleteUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteUser(argument: _gatehouse_v1_DeleteUserRequest, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  
  DeleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  DisableUser(argument: _gatehouse_v1_DisableUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  DisableUser(argument: _gatehouse_v1_DisableUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  DisableUser(argument: _gatehouse_v1_DisableUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  DisableUser(argument: _gatehouse_v1_DisableUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  disableUser(argument: _gatehouse_v1_DisableUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  disableUser(argument: _gatehouse_v1_DisableUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  disableUser(argument: _gatehouse_v1_DisableUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  disableUser(argument: _gatehouse_v1_DisableUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  
  EnableUser(argument: _gatehouse_v1_EnableUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  EnableUser(argument: _gatehouse_v1_EnableUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  EnableUser(argument: _gatehouse_v1_EnableUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  EnableUser(argument: _gatehouse_v1_EnableUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  enableUser(argument: _gatehouse_v1_EnableUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  enableUser(argument: _gatehouse_v1_EnableUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  enableUser(argument: _gatehouse_v1_EnableUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  enableUser(argument: _gatehouse_v1_EnableUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  
  GetClient(argument: _gatehouse_v1_GetClientRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  GetClient(argument: _gatehouse_v1_GetClientRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  GetClient(argument: _gatehouse_v1_GetClientRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  GetClient(argument: _gatehouse_v1_GetClientRequest, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  getClient(argument: _gatehouse_v1_GetClientRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  getClient(argument: _gatehouse_v1_GetClientRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  getClient(argument: _gatehouse_v1_GetClientRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  getClient(argument: _gatehouse_v1_GetClientRequest, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  
  GetProvider(argument: _gatehouse_v1_GetProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  GetProvider(argument: _gatehouse_v1_GetProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  GetProvider(argument: _gatehouse_v1_GetProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  GetProvider(argument: _gatehouse_v1_GetProviderRequest, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  getProvider(argument: _gatehouse_v1_GetProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  getProvider(argument: _gatehouse_v1_GetProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  getProvider(argument: _gatehouse_v1_GetProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  getProvider(argument: _gatehouse_v1_GetProviderRequest, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  
  GetRealm(argument: _gatehouse_v1_GetRealmRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  GetRealm(argument: _gatehouse_v1_GetRealmRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  GetRealm(argument: _gatehouse_v1_GetRealmRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  GetRealm(argument: _gatehouse_v1_GetRealmRequest, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  getRealm(argument: _gatehouse_v1_GetRealmRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  getRealm(argument: _gatehouse_v1_GetRealmRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  getRealm(argument: _gatehouse_v1_GetRealmRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  getRealm(argument: _gatehouse_v1_GetRealmRequest, callback: grpc.requestCallback<_gatehouse_v1_Realm__Output>): grpc.ClientUnaryCall;
  
  GetUser(argument: _gatehouse_v1_GetUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  GetUser(argument: _gatehouse_v1_GetUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  GetUser(argument: _gatehouse_v1_GetUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  GetUser(argument: _gatehouse_v1_GetUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  getUser(argument: _gatehouse_v1_GetUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  getUser(argument: _gatehouse_v1_GetUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  getUser(argument: _gatehouse_v1_GetUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  getUser(argument: _gatehouse_v1_GetUserRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  
  GetWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  ListApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _gatehouse_v1_ListApiKeysRequest, callback: grpc.requestCallback<_gatehouse_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  
  ListAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  listAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  listAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  listAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  listAuditRecords(argument: _gatehouse_v1_ListAuditRecordsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListAuditRecordsResponse__Output>): grpc.ClientUnaryCall;
  
  ListClients(argument: _gatehouse_v1_ListClientsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  ListClients(argument: _gatehouse_v1_ListClientsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  ListClients(argument: _gatehouse_v1_ListClientsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  ListClients(argument: _gatehouse_v1_ListClientsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  listClients(argument: _gatehouse_v1_ListClientsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  listClients(argument: _gatehouse_v1_ListClientsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  listClients(argument: _gatehouse_v1_ListClientsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  listClients(argument: _gatehouse_v1_ListClientsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListClientsResponse__Output>): grpc.ClientUnaryCall;
  
  ListProviders(argument: _gatehouse_v1_ListProvidersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  ListProviders(argument: _gatehouse_v1_ListProvidersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  ListProviders(argument: _gatehouse_v1_ListProvidersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  ListProviders(argument: _gatehouse_v1_ListProvidersRequest, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _gatehouse_v1_ListProvidersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _gatehouse_v1_ListProvidersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _gatehouse_v1_ListProvidersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _gatehouse_v1_ListProvidersRequest, callback: grpc.requestCallback<_gatehouse_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  
  ListRealms(argument: _gatehouse_v1_ListRealmsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  ListRealms(argument: _gatehouse_v1_ListRealmsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  ListRealms(argument: _gatehouse_v1_ListRealmsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  ListRealms(argument: _gatehouse_v1_ListRealmsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  listRealms(argument: _gatehouse_v1_ListRealmsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  listRealms(argument: _gatehouse_v1_ListRealmsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  listRealms(argument: _gatehouse_v1_ListRealmsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  listRealms(argument: _gatehouse_v1_ListRealmsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListRealmsResponse__Output>): grpc.ClientUnaryCall;
  
  ListUsers(argument: _gatehouse_v1_ListUsersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _gatehouse_v1_ListUsersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _gatehouse_v1_ListUsersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  ListUsers(argument: _gatehouse_v1_ListUsersRequest, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _gatehouse_v1_ListUsersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _gatehouse_v1_ListUsersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _gatehouse_v1_ListUsersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  listUsers(argument: _gatehouse_v1_ListUsersRequest, callback: grpc.requestCallback<_gatehouse_v1_ListUsersResponse__Output>): grpc.ClientUnaryCall;
  
  ListWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listWebhookDeliveries(argument: _gatehouse_v1_ListWebhookDeliveriesRequest, callback: grpc.requestCallback<_gatehouse_v1_ListWebhookDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  
  ListWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _gatehouse_v1_ListWebhooksRequest, callback: grpc.requestCallback<_gatehouse_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  
  PutProvider(argument: _gatehouse_v1_PutProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  PutProvider(argument: _gatehouse_v1_PutProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  PutProvider(argument: _gatehouse_v1_PutProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  PutProvider(argument: _gatehouse_v1_PutProviderRequest, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  putProvider(argument: _gatehouse_v1_PutProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  putProvider(argument: _gatehouse_v1_PutProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  putProvider(argument: _gatehouse_v1_PutProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  putProvider(argument: _gatehouse_v1_PutProviderRequest, callback: grpc.requestCallback<_gatehouse_v1_Provider__Output>): grpc.ClientUnaryCall;
  
  RedeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RedeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RedeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RedeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  redeliverWebhook(argument: _gatehouse_v1_RedeliverWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  
  RevokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _gatehouse_v1_RevokeApiKeyRequest, callback: grpc.requestCallback<_gatehouse_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  
  RotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  RotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  RotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  RotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  rotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  rotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  rotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  rotateSigningKey(argument: _gatehouse_v1_RotateSigningKeyRequest, callback: grpc.requestCallback<_gatehouse_v1_SigningKeyRotation__Output>): grpc.ClientUnaryCall;
  
  RotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  SignOutUser(argument: _gatehouse_v1_SignOutUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  SignOutUser(argument: _gatehouse_v1_SignOutUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  SignOutUser(argument: _gatehouse_v1_SignOutUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  SignOutUser(argument: _gatehouse_v1_SignOutUserRequest, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  signOutUser(argument: _gatehouse_v1_SignOutUserRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  signOutUser(argument: _gatehouse_v1_SignOutUserRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  signOutUser(argument: _gatehouse_v1_SignOutUserRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  signOutUser(argument: _gatehouse_v1_SignOutUserRequest, callback: grpc.requestCallback<_gatehouse_v1_SignOutUserResponse__Output>): grpc.ClientUnaryCall;
  
  TestWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  TestWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  TestWebhook(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  TestWebhook(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  testWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  testWebhook(argument: _gatehouse_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  testWebhook(argument: _gatehouse_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  testWebhook(argument: _gatehouse_v1_GetWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_WebhookTestEvent__Output>): grpc.ClientUnaryCall;
  
  UnlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  UnlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  UnlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  UnlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  unlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  unlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  unlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  unlinkUserIdentity(argument: _gatehouse_v1_UnlinkUserIdentityRequest, callback: grpc.requestCallback<_gatehouse_v1_User__Output>): grpc.ClientUnaryCall;
  
  UpdateClient(argument: _gatehouse_v1_UpdateClientRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  UpdateClient(argument: _gatehouse_v1_UpdateClientRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  UpdateClient(argument: _gatehouse_v1_UpdateClientRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  UpdateClient(argument: _gatehouse_v1_UpdateClientRequest, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  updateClient(argument: _gatehouse_v1_UpdateClientRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  updateClient(argument: _gatehouse_v1_UpdateClientRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  updateClient(argument: _gatehouse_v1_UpdateClientRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  updateClient(argument: _gatehouse_v1_UpdateClientRequest, callback: grpc.requestCallback<_gatehouse_v1_Client__Output>): grpc.ClientUnaryCall;
  
  UpdateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _gatehouse_v1_UpdateWebhookRequest, callback: grpc.requestCallback<_gatehouse_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  WhoAmI(argument: _gatehouse_v1_WhoAmIRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  WhoAmI(argument: _gatehouse_v1_WhoAmIRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  WhoAmI(argument: _gatehouse_v1_WhoAmIRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  WhoAmI(argument: _gatehouse_v1_WhoAmIRequest, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  whoAmI(argument: _gatehouse_v1_WhoAmIRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  whoAmI(argument: _gatehouse_v1_WhoAmIRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  whoAmI(argument: _gatehouse_v1_WhoAmIRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  whoAmI(argument: _gatehouse_v1_WhoAmIRequest, callback: grpc.requestCallback<_gatehouse_v1_WhoAmIResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AdminServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateApiKey: grpc.handleUnaryCall<_gatehouse_v1_CreateApiKeyRequest__Output, _gatehouse_v1_CreatedApiKey>;
  
  CreateClient: grpc.handleUnaryCall<_gatehouse_v1_CreateClientRequest__Output, _gatehouse_v1_Client>;
  
  CreateRealm: grpc.handleUnaryCall<_gatehouse_v1_CreateRealmRequest__Output, _gatehouse_v1_Realm>;
  
  CreateUser: grpc.handleUnaryCall<_gatehouse_v1_CreateUserRequest__Output, _gatehouse_v1_User>;
  
  CreateWebhook: grpc.handleUnaryCall<_gatehouse_v1_CreateWebhookRequest__Output, _gatehouse_v1_Webhook>;
  
  DeleteUser: grpc.handleUnaryCall<_gatehouse_v1_DeleteUserRequest__Output, _gatehouse_v1_DeletedAccount>;
  
  DeleteWebhook: grpc.handleUnaryCall<_gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_Webhook>;
  
  DisableUser: grpc.handleUnaryCall<_gatehouse_v1_DisableUserRequest__Output, _gatehouse_v1_User>;
  
  EnableUser: grpc.handleUnaryCall<_gatehouse_v1_EnableUserRequest__Output, _gatehouse_v1_User>;
  
  GetClient: grpc.handleUnaryCall<_gatehouse_v1_GetClientRequest__Output, _gatehouse_v1_Client>;
  
  GetProvider: grpc.handleUnaryCall<_gatehouse_v1_GetProviderRequest__Output, _gatehouse_v1_Provider>;
  
  GetRealm: grpc.handleUnaryCall<_gatehouse_v1_GetRealmRequest__Output, _gatehouse_v1_Realm>;
  
  GetUser: grpc.handleUnaryCall<_gatehouse_v1_GetUserRequest__Output, _gatehouse_v1_User>;
  
  GetWebhook: grpc.handleUnaryCall<_gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_Webhook>;
  
  ListApiKeys: grpc.handleUnaryCall<_gatehouse_v1_ListApiKeysRequest__Output, _gatehouse_v1_ListApiKeysResponse>;
  
  ListAuditRecords: grpc.handleUnaryCall<_gatehouse_v1_ListAuditRecordsRequest__Output, _gatehouse_v1_ListAuditRecordsResponse>;
  
  ListClients: grpc.handleUnaryCall<_gatehouse_v1_ListClientsRequest__Output, _gatehouse_v1_ListClientsResponse>;
  
  ListProviders: grpc.handleUnaryCall<_gatehouse_v1_ListProvidersRequest__Output, _gatehouse_v1_ListProvidersResponse>;
  
  ListRealms: grpc.handleUnaryCall<_gatehouse_v1_ListRealmsRequest__Output, _gatehouse_v1_ListRealmsResponse>;
  
  ListUsers: grpc.handleUnaryCall<_gatehouse_v1_ListUsersRequest__Output, _gatehouse_v1_ListUsersResponse>;
  
  ListWebhookDeliveries: grpc.handleUnaryCall<_gatehouse_v1_ListWebhookDeliveriesRequest__Output, _gatehouse_v1_ListWebhookDeliveriesResponse>;
  
  ListWebhooks: grpc.handleUnaryCall<_gatehouse_v1_ListWebhooksRequest__Output, _gatehouse_v1_ListWebhooksResponse>;
  
  PutProvider: grpc.handleUnaryCall<_gatehouse_v1_PutProviderRequest__Output, _gatehouse_v1_Provider>;
  
  RedeliverWebhook: grpc.handleUnaryCall<_gatehouse_v1_RedeliverWebhookRequest__Output, _gatehouse_v1_WebhookDelivery>;
  
  RevokeApiKey: grpc.handleUnaryCall<_gatehouse_v1_RevokeApiKeyRequest__Output, _gatehouse_v1_ApiKey>;
  
  RotateSigningKey: grpc.handleUnaryCall<_gatehouse_v1_RotateSigningKeyRequest__Output, _gatehouse_v1_SigningKeyRotation>;
  
  RotateWebhookSecret: grpc.handleUnaryCall<_gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_Webhook>;
  
  SignOutUser: grpc.handleUnaryCall<_gatehouse_v1_SignOutUserRequest__Output, _gatehouse_v1_SignOutUserResponse>;
  
  TestWebhook: grpc.handleUnaryCall<_gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_WebhookTestEvent>;
  
  UnlinkUserIdentity: grpc.handleUnaryCall<_gatehouse_v1_UnlinkUserIdentityRequest__Output, _gatehouse_v1_User>;
  
  UpdateClient: grpc.handleUnaryCall<_gatehouse_v1_UpdateClientRequest__Output, _gatehouse_v1_Client>;
  
  UpdateWebhook: grpc.handleUnaryCall<_gatehouse_v1_UpdateWebhookRequest__Output, _gatehouse_v1_Webhook>;
  
  WhoAmI: grpc.handleUnaryCall<_gatehouse_v1_WhoAmIRequest__Output, _gatehouse_v1_WhoAmIResponse>;
  
}

export interface AdminServiceDefinition extends grpc.ServiceDefinition {
  CreateApiKey: MethodDefinition<_gatehouse_v1_CreateApiKeyRequest, _gatehouse_v1_CreatedApiKey, _gatehouse_v1_CreateApiKeyRequest__Output, _gatehouse_v1_CreatedApiKey__Output>
  CreateClient: MethodDefinition<_gatehouse_v1_CreateClientRequest, _gatehouse_v1_Client, _gatehouse_v1_CreateClientRequest__Output, _gatehouse_v1_Client__Output>
  CreateRealm: MethodDefinition<_gatehouse_v1_CreateRealmRequest, _gatehouse_v1_Realm, _gatehouse_v1_CreateRealmRequest__Output, _gatehouse_v1_Realm__Output>
  CreateUser: MethodDefinition<_gatehouse_v1_CreateUserRequest, _gatehouse_v1_User, _gatehouse_v1_CreateUserRequest__Output, _gatehouse_v1_User__Output>
  CreateWebhook: MethodDefinition<_gatehouse_v1_CreateWebhookRequest, _gatehouse_v1_Webhook, _gatehouse_v1_CreateWebhookRequest__Output, _gatehouse_v1_Webhook__Output>
  DeleteUser: MethodDefinition<_gatehouse_v1_DeleteUserRequest, _gatehouse_v1_DeletedAccount, _gatehouse_v1_DeleteUserRequest__Output, _gatehouse_v1_DeletedAccount__Output>
  DeleteWebhook: MethodDefinition<_gatehouse_v1_GetWebhookRequest, _gatehouse_v1_Webhook, _gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_Webhook__Output>
  DisableUser: MethodDefinition<_gatehouse_v1_DisableUserRequest, _gatehouse_v1_User, _gatehouse_v1_DisableUserRequest__Output, _gatehouse_v1_User__Output>
  EnableUser: MethodDefinition<_gatehouse_v1_EnableUserRequest, _gatehouse_v1_User, _gatehouse_v1_EnableUserRequest__Output, _gatehouse_v1_User__Output>
  GetClient: MethodDefinition<_gatehouse_v1_GetClientRequest, _gatehouse_v1_Client, _gatehouse_v1_GetClientRequest__Output, _gatehouse_v1_Client__Output>
  GetProvider: MethodDefinition<_gatehouse_v1_GetProviderRequest, _gatehouse_v1_Provider, _gatehouse_v1_GetProviderRequest__Output, _gatehouse_v1_Provider__Output>
  GetRealm: MethodDefinition<_gatehouse_v1_GetRealmRequest, _gatehouse_v1_Realm, _gatehouse_v1_GetRealmRequest__Output, _gatehouse_v1_Realm__Output>
  GetUser: MethodDefinition<_gatehouse_v1_GetUserRequest, _gatehouse_v1_User, _gatehouse_v1_GetUserRequest__Output, _gatehouse_v1_User__Output>
  GetWebhook: MethodDefinition<_gatehouse_v1_GetWebhookRequest, _gatehouse_v1_Webhook, _gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_Webhook__Output>
  ListApiKeys: MethodDefinition<_gatehouse_v1_ListApiKeysRequest, _gatehouse_v1_ListApiKeysResponse, _gatehouse_v1_ListApiKeysRequest__Output, _gatehouse_v1_ListApiKeysResponse__Output>
  ListAuditRecords: MethodDefinition<_gatehouse_v1_ListAuditRecordsRequest, _gatehouse_v1_ListAuditRecordsResponse, _gatehouse_v1_ListAuditRecordsRequest__Output, _gatehouse_v1_ListAuditRecordsResponse__Output>
  ListClients: MethodDefinition<_gatehouse_v1_ListClientsRequest, _gatehouse_v1_ListClientsResponse, _gatehouse_v1_ListClientsRequest__Output, _gatehouse_v1_ListClientsResponse__Output>
  ListProviders: MethodDefinition<_gatehouse_v1_ListProvidersRequest, _gatehouse_v1_ListProvidersResponse, _gatehouse_v1_ListProvidersRequest__Output, _gatehouse_v1_ListProvidersResponse__Output>
  ListRealms: MethodDefinition<_gatehouse_v1_ListRealmsRequest, _gatehouse_v1_ListRealmsResponse, _gatehouse_v1_ListRealmsRequest__Output, _gatehouse_v1_ListRealmsResponse__Output>
  ListUsers: MethodDefinition<_gatehouse_v1_ListUsersRequest, _gatehouse_v1_ListUsersResponse, _gatehouse_v1_ListUsersRequest__Output, _gatehouse_v1_ListUsersResponse__Output>
  ListWebhookDeliveries: MethodDefinition<_gatehouse_v1_ListWebhookDeliveriesRequest, _gatehouse_v1_ListWebhookDeliveriesResponse, _gatehouse_v1_ListWebhookDeliveriesRequest__Output, _gatehouse_v1_ListWebhookDeliveriesResponse__Output>
  ListWebhooks: MethodDefinition<_gatehouse_v1_ListWebhooksRequest, _gatehouse_v1_ListWebhooksResponse, _gatehouse_v1_ListWebhooksRequest__Output, _gatehouse_v1_ListWebhooksResponse__Output>
  PutProvider: MethodDefinition<_gatehouse_v1_PutProviderRequest, _gatehouse_v1_Provider, _gatehouse_v1_PutProviderRequest__Output, _gatehouse_v1_Provider__Output>
  RedeliverWebhook: MethodDefinition<_gatehouse_v1_RedeliverWebhookRequest, _gatehouse_v1_WebhookDelivery, _gatehouse_v1_RedeliverWebhookRequest__Output, _gatehouse_v1_WebhookDelivery__Output>
  RevokeApiKey: MethodDefinition<_gatehouse_v1_RevokeApiKeyRequest, _gatehouse_v1_ApiKey, _gatehouse_v1_RevokeApiKeyRequest__Output, _gatehouse_v1_ApiKey__Output>
  RotateSigningKey: MethodDefinition<_gatehouse_v1_RotateSigningKeyRequest, _gatehouse_v1_SigningKeyRotation, _gatehouse_v1_RotateSigningKeyRequest__Output, _gatehouse_v1_SigningKeyRotation__Output>
  RotateWebhookSecret: MethodDefinition<_gatehouse_v1_GetWebhookRequest, _gatehouse_v1_Webhook, _gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_Webhook__Output>
  SignOutUser: MethodDefinition<_gatehouse_v1_SignOutUserRequest, _gatehouse_v1_SignOutUserResponse, _gatehouse_v1_SignOutUserRequest__Output, _gatehouse_v1_SignOutUserResponse__Output>
  TestWebhook: MethodDefinition<_gatehouse_v1_GetWebhookRequest, _gatehouse_v1_WebhookTestEvent, _gatehouse_v1_GetWebhookRequest__Output, _gatehouse_v1_WebhookTestEvent__Output>
  UnlinkUserIdentity: MethodDefinition<_gatehouse_v1_UnlinkUserIdentityRequest, _gatehouse_v1_User, _gatehouse_v1_UnlinkUserIdentityRequest__Output, _gatehouse_v1_User__Output>
  UpdateClient: MethodDefinition<_gatehouse_v1_UpdateClientRequest, _gatehouse_v1_Client, _gatehouse_v1_UpdateClientRequest__Output, _gatehouse_v1_Client__Output>
  UpdateWebhook: MethodDefinition<_gatehouse_v1_UpdateWebhookRequest, _gatehouse_v1_Webhook, _gatehouse_v1_UpdateWebhookRequest__Output, _gatehouse_v1_Webhook__Output>
  WhoAmI: MethodDefinition<_gatehouse_v1_WhoAmIRequest, _gatehouse_v1_WhoAmIResponse, _gatehouse_v1_WhoAmIRequest__Output, _gatehouse_v1_WhoAmIResponse__Output>
}
