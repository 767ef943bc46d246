// Original file: gatehouse/v1/auth.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AppleNotificationRequest as _gatehouse_v1_AppleNotificationRequest, AppleNotificationRequest__Output as _gatehouse_v1_AppleNotificationRequest__Output } from '../../gatehouse/v1/AppleNotificationRequest.ts';
import type { AppleNotificationResponse as _gatehouse_v1_AppleNotificationResponse, AppleNotificationResponse__Output as _gatehouse_v1_AppleNotificationResponse__Output } from '../../gatehouse/v1/AppleNotificationResponse.ts';
import type { AppleWebCallbackRequest as _gatehouse_v1_AppleWebCallbackRequest, AppleWebCallbackRequest__Output as _gatehouse_v1_AppleWebCallbackRequest__Output } from '../../gatehouse/v1/AppleWebCallbackRequest.ts';
import type { AppleWebCallbackResponse as _gatehouse_v1_AppleWebCallbackResponse, AppleWebCallbackResponse__Output as _gatehouse_v1_AppleWebCallbackResponse__Output } from '../../gatehouse/v1/AppleWebCallbackResponse.ts';
import type { AppleWebLoginRequest as _gatehouse_v1_AppleWebLoginRequest, AppleWebLoginRequest__Output as _gatehouse_v1_AppleWebLoginRequest__Output } from '../../gatehouse/v1/AppleWebLoginRequest.ts';
import type { AppleWebLoginResponse as _gatehouse_v1_AppleWebLoginResponse, AppleWebLoginResponse__Output as _gatehouse_v1_AppleWebLoginResponse__Output } from '../../gatehouse/v1/AppleWebLoginResponse.ts';
import type { AuthorizationServerMetadata as _gatehouse_v1_AuthorizationServerMetadata, AuthorizationServerMetadata__Output as _gatehouse_v1_AuthorizationServerMetadata__Output } from '../../gatehouse/v1/AuthorizationServerMetadata.ts';
import type { AuthorizeRequest as _gatehouse_v1_AuthorizeRequest, AuthorizeRequest__Output as _gatehouse_v1_AuthorizeRequest__Output } from '../../gatehouse/v1/AuthorizeRequest.ts';
import type { AuthorizeResponse as _gatehouse_v1_AuthorizeResponse, AuthorizeResponse__Output as _gatehouse_v1_AuthorizeResponse__Output } from '../../gatehouse/v1/AuthorizeResponse.ts';
import type { DeleteMeRequest as _gatehouse_v1_DeleteMeRequest, DeleteMeRequest__Output as _gatehouse_v1_DeleteMeRequest__Output } from '../../gatehouse/v1/DeleteMeRequest.ts';
import type { DeletedAccount as _gatehouse_v1_DeletedAccount, DeletedAccount__Output as _gatehouse_v1_DeletedAccount__Output } from '../../gatehouse/v1/DeletedAccount.ts';
import type { IntrospectRequest as _gatehouse_v1_IntrospectRequest, IntrospectRequest__Output as _gatehouse_v1_IntrospectRequest__Output } from '../../gatehouse/v1/IntrospectRequest.ts';
import type { IntrospectResponse as _gatehouse_v1_IntrospectResponse, IntrospectResponse__Output as _gatehouse_v1_IntrospectResponse__Output } from '../../gatehouse/v1/IntrospectResponse.ts';
import type { JwkSet as _gatehouse_v1_JwkSet, JwkSet__Output as _gatehouse_v1_JwkSet__Output } from '../../gatehouse/v1/JwkSet.ts';
import type { JwksRequest as _gatehouse_v1_JwksRequest, JwksRequest__Output as _gatehouse_v1_JwksRequest__Output } from '../../gatehouse/v1/JwksRequest.ts';
import type { LinkMyIdentityRequest as _gatehouse_v1_LinkMyIdentityRequest, LinkMyIdentityRequest__Output as _gatehouse_v1_LinkMyIdentityRequest__Output } from '../../gatehouse/v1/LinkMyIdentityRequest.ts';
import type { ListMyIdentitiesRequest as _gatehouse_v1_ListMyIdentitiesRequest, ListMyIdentitiesRequest__Output as _gatehouse_v1_ListMyIdentitiesRequest__Output } from '../../gatehouse/v1/ListMyIdentitiesRequest.ts';
import type { MetadataRequest as _gatehouse_v1_MetadataRequest, MetadataRequest__Output as _gatehouse_v1_MetadataRequest__Output } from '../../gatehouse/v1/MetadataRequest.ts';
import type { MyIdentities as _gatehouse_v1_MyIdentities, MyIdentities__Output as _gatehouse_v1_MyIdentities__Output } from '../../gatehouse/v1/MyIdentities.ts';
import type { NativeLoginRequest as _gatehouse_v1_NativeLoginRequest, NativeLoginRequest__Output as _gatehouse_v1_NativeLoginRequest__Output } from '../../gatehouse/v1/NativeLoginRequest.ts';
import type { NativeLoginResponse as _gatehouse_v1_NativeLoginResponse, NativeLoginResponse__Output as _gatehouse_v1_NativeLoginResponse__Output } from '../../gatehouse/v1/NativeLoginResponse.ts';
import type { RevokeRequest as _gatehouse_v1_RevokeRequest, RevokeRequest__Output as _gatehouse_v1_RevokeRequest__Output } from '../../gatehouse/v1/RevokeRequest.ts';
import type { RevokeResponse as _gatehouse_v1_RevokeResponse, RevokeResponse__Output as _gatehouse_v1_RevokeResponse__Output } from '../../gatehouse/v1/RevokeResponse.ts';
import type { TokenRequest as _gatehouse_v1_TokenRequest, TokenRequest__Output as _gatehouse_v1_TokenRequest__Output } from '../../gatehouse/v1/TokenRequest.ts';
import type { TokenResponse as _gatehouse_v1_TokenResponse, TokenResponse__Output as _gatehouse_v1_TokenResponse__Output } from '../../gatehouse/v1/TokenResponse.ts';
import type { UnlinkMyIdentityRequest as _gatehouse_v1_UnlinkMyIdentityRequest, UnlinkMyIdentityRequest__Output as _gatehouse_v1_UnlinkMyIdentityRequest__Output } from '../../gatehouse/v1/UnlinkMyIdentityRequest.ts';
import type { UserInfoRequest as _gatehouse_v1_UserInfoRequest, UserInfoRequest__Output as _gatehouse_v1_UserInfoRequest__Output } from '../../gatehouse/v1/UserInfoRequest.ts';
import type { UserInfoResponse as _gatehouse_v1_UserInfoResponse, UserInfoResponse__Output as _gatehouse_v1_UserInfoResponse__Output } from '../../gatehouse/v1/UserInfoResponse.ts';

export interface AuthServiceClient extends grpc.Client {
  AppleNotification(argument: _gatehouse_v1_AppleNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  AppleNotification(argument: _gatehouse_v1_AppleNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  AppleNotification(argument: _gatehouse_v1_AppleNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  AppleNotification(argument: _gatehouse_v1_AppleNotificationRequest, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  appleNotification(argument: _gatehouse_v1_AppleNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  appleNotification(argument: _gatehouse_v1_AppleNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  appleNotification(argument: _gatehouse_v1_AppleNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  appleNotification(argument: _gatehouse_v1_AppleNotificationRequest, callback: grpc.requestCallback<_gatehouse_v1_AppleNotificationResponse__Output>): grpc.ClientUnaryCall;
  
  AppleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  AppleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  AppleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  AppleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  appleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  appleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  appleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  appleWebCallback(argument: _gatehouse_v1_AppleWebCallbackRequest, callback: grpc.requestCallback<_gatehouse_v1_AppleWebCallbackResponse__Output>): grpc.ClientUnaryCall;
  
  AppleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  AppleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  AppleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  AppleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  appleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  appleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  appleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  appleWebLogin(argument: _gatehouse_v1_AppleWebLoginRequest, callback: grpc.requestCallback<_gatehouse_v1_AppleWebLoginResponse__Output>): grpc.ClientUnaryCall;
  
  Authorize(argument: _gatehouse_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _gatehouse_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _gatehouse_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _gatehouse_v1_AuthorizeRequest, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _gatehouse_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _gatehouse_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _gatehouse_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _gatehouse_v1_AuthorizeRequest, callback: grpc.requestCallback<_gatehouse_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteMe(argument: _gatehouse_v1_DeleteMeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  DeleteMe(argument: _gatehouse_v1_DeleteMeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  DeleteMe(argument: _gatehouse_v1_DeleteMeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  DeleteMe(argument: _gatehouse_v1_DeleteMeRequest, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteMe(argument: _gatehouse_v1_DeleteMeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteMe(argument: _gatehouse_v1_DeleteMeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteMe(argument: _gatehouse_v1_DeleteMeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  deleteMe(argument: _gatehouse_v1_DeleteMeRequest, callback: grpc.requestCallback<_gatehouse_v1_DeletedAccount__Output>): grpc.ClientUnaryCall;
  
  Introspect(argument: _gatehouse_v1_IntrospectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  Introspect(argument: _gatehouse_v1_IntrospectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  Introspect(argument: _gatehouse_v1_IntrospectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  Introspect(argument: _gatehouse_v1_IntrospectRequest, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  introspect(argument: _gatehouse_v1_IntrospectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  introspect(argument: _gatehouse_v1_IntrospectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  introspect(argument: _gatehouse_v1_IntrospectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  introspect(argument: _gatehouse_v1_IntrospectRequest, callback: grpc.requestCallback<_gatehouse_v1_IntrospectResponse__Output>): grpc.ClientUnaryCall;
  
  Jwks(argument: _gatehouse_v1_JwksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  Jwks(argument: _gatehouse_v1_JwksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  Jwks(argument: _gatehouse_v1_JwksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  Jwks(argument: _gatehouse_v1_JwksRequest, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  jwks(argument: _gatehouse_v1_JwksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  jwks(argument: _gatehouse_v1_JwksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  jwks(argument: _gatehouse_v1_JwksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  jwks(argument: _gatehouse_v1_JwksRequest, callback: grpc.requestCallback<_gatehouse_v1_JwkSet__Output>): grpc.ClientUnaryCall;
  
  LinkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  LinkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  LinkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  LinkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  linkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  linkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  linkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  linkMyIdentity(argument: _gatehouse_v1_LinkMyIdentityRequest, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  
  ListMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  ListMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  ListMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  ListMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  listMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  listMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  listMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  listMyIdentities(argument: _gatehouse_v1_ListMyIdentitiesRequest, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  
  Metadata(argument: _gatehouse_v1_MetadataRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  Metadata(argument: _gatehouse_v1_MetadataRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  Metadata(argument: _gatehouse_v1_MetadataRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  Metadata(argument: _gatehouse_v1_MetadataRequest, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  metadata(argument: _gatehouse_v1_MetadataRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  metadata(argument: _gatehouse_v1_MetadataRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  metadata(argument: _gatehouse_v1_MetadataRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  metadata(argument: _gatehouse_v1_MetadataRequest, callback: grpc.requestCallback<_gatehouse_v1_AuthorizationServerMetadata__Output>): grpc.ClientUnaryCall;
  
  NativeLogin(argument: _gatehouse_v1_NativeLoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  NativeLogin(argument: _gatehouse_v1_NativeLoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  NativeLogin(argument: _gatehouse_v1_NativeLoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  NativeLogin(argument: _gatehouse_v1_NativeLoginRequest, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  nativeLogin(argument: _gatehouse_v1_NativeLoginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  nativeLogin(argument: _gatehouse_v1_NativeLoginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  nativeLogin(argument: _gatehouse_v1_NativeLoginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  nativeLogin(argument: _gatehouse_v1_NativeLoginRequest, callback: grpc.requestCallback<_gatehouse_v1_NativeLoginResponse__Output>): grpc.ClientUnaryCall;
  
  Revoke(argument: _gatehouse_v1_RevokeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  Revoke(argument: _gatehouse_v1_RevokeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  Revoke(argument: _gatehouse_v1_RevokeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  Revoke(argument: _gatehouse_v1_RevokeRequest, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  revoke(argument: _gatehouse_v1_RevokeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  revoke(argument: _gatehouse_v1_RevokeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  revoke(argument: _gatehouse_v1_RevokeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  revoke(argument: _gatehouse_v1_RevokeRequest, callback: grpc.requestCallback<_gatehouse_v1_RevokeResponse__Output>): grpc.ClientUnaryCall;
  
  Token(argument: _gatehouse_v1_TokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  Token(argument: _gatehouse_v1_TokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  Token(argument: _gatehouse_v1_TokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  Token(argument: _gatehouse_v1_TokenRequest, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  token(argument: _gatehouse_v1_TokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  token(argument: _gatehouse_v1_TokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  token(argument: _gatehouse_v1_TokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  token(argument: _gatehouse_v1_TokenRequest, callback: grpc.requestCallback<_gatehouse_v1_TokenResponse__Output>): grpc.ClientUnaryCall;
  
  UnlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  UnlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  UnlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  UnlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  unlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  unlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  unlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  unlinkMyIdentity(argument: _gatehouse_v1_UnlinkMyIdentityRequest, callback: grpc.requestCallback<_gatehouse_v1_MyIdentities__Output>): grpc.ClientUnaryCall;
  
  UserInfo(argument: _gatehouse_v1_UserInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  UserInfo(argument: _gatehouse_v1_UserInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  UserInfo(argument: _gatehouse_v1_UserInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  UserInfo(argument: _gatehouse_v1_UserInfoRequest, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  userInfo(argument: _gatehouse_v1_UserInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  userInfo(argument: _gatehouse_v1_UserInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  userInfo(argument: _gatehouse_v1_UserInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  userInfo(argument: _gatehouse_v1_UserInfoRequest, callback: grpc.requestCallback<_gatehouse_v1_UserInfoResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AuthServiceHandlers extends grpc.UntypedServiceImplementation {
  AppleNotification: grpc.handleUnaryCall<_gatehouse_v1_AppleNotificationRequest__Output, _gatehouse_v1_AppleNotificationResponse>;
  
  AppleWebCallback: grpc.handleUnaryCall<_gatehouse_v1_AppleWebCallbackRequest__Output, _gatehouse_v1_AppleWebCallbackResponse>;
  
  AppleWebLogin: grpc.handleUnaryCall<_gatehouse_v1_AppleWebLoginRequest__Output, _gatehouse_v1_AppleWebLoginResponse>;
  
  Authorize: grpc.handleUnaryCall<_gatehouse_v1_AuthorizeRequest__Output, _gatehouse_v1_AuthorizeResponse>;
  
  DeleteMe: grpc.handleUnaryCall<_gatehouse_v1_DeleteMeRequest__Output, _gatehouse_v1_DeletedAccount>;
  
  Introspect: grpc.handleUnaryCall<_gatehouse_v1_IntrospectRequest__Output, _gatehouse_v1_IntrospectResponse>;
  
  Jwks: grpc.handleUnaryCall<_gatehouse_v1_JwksRequest__Output, _gatehouse_v1_JwkSet>;
  
  LinkMyIdentity: grpc.handleUnaryCall<_gatehouse_v1_LinkMyIdentityRequest__Output, _gatehouse_v1_MyIdentities>;
  
  ListMyIdentities: grpc.handleUnaryCall<_gatehouse_v1_ListMyIdentitiesRequest__Output, _gatehouse_v1_MyIdentities>;
  
  Metadata: grpc.handleUnaryCall<_gatehouse_v1_MetadataRequest__Output, _gatehouse_v1_AuthorizationServerMetadata>;
  
  NativeLogin: grpc.handleUnaryCall<_gatehouse_v1_NativeLoginRequest__Output, _gatehouse_v1_NativeLoginResponse>;
  
  Revoke: grpc.handleUnaryCall<_gatehouse_v1_RevokeRequest__Output, _gatehouse_v1_RevokeResponse>;
  
  Token: grpc.handleUnaryCall<_gatehouse_v1_TokenRequest__Output, _gatehouse_v1_TokenResponse>;
  
  UnlinkMyIdentity: grpc.handleUnaryCall<_gatehouse_v1_UnlinkMyIdentityRequest__Output, _gatehouse_v1_MyIdentities>;
  
  UserInfo: grpc.handleUnaryCall<_gatehouse_v1_UserInfoRequest__Output, _gatehouse_v1_UserInfoResponse>;
  
}

export interface AuthServiceDefinition extends grpc.ServiceDefinition {
  AppleNotification: MethodDefinition<_gatehouse_v1_AppleNotificationRequest, _gatehouse_v1_AppleNotificationResponse, _gatehouse_v1_AppleNotificationRequest__Output, _gatehouse_v1_AppleNotificationResponse__Output>
  AppleWebCallback: MethodDefinition<_gatehouse_v1_AppleWebCallbackRequest, _gatehouse_v1_AppleWebCallbackResponse, _gatehouse_v1_AppleWebCallbackRequest__Output, _gatehouse_v1_AppleWebCallbackResponse__Output>
  AppleWebLogin: MethodDefinition<_gatehouse_v1_AppleWebLoginRequest, _gatehouse_v1_AppleWebLoginResponse, _gatehouse_v1_AppleWebLoginRequest__Output, _gatehouse_v1_AppleWebLoginResponse__Output>
  Authorize: MethodDefinition<_gatehouse_v1_AuthorizeRequest, _gatehouse_v1_AuthorizeResponse, _gatehouse_v1_AuthorizeRequest__Output, _gatehouse_v1_AuthorizeResponse__Output>
  DeleteMe: MethodDefinition<_gatehouse_v1_DeleteMeRequest, _gatehouse_v1_DeletedAccount, _gatehouse_v1_DeleteMeRequest__Output, _gatehouse_v1_DeletedAccount__Output>
  Introspect: MethodDefinition<_gatehouse_v1_IntrospectRequest, _gatehouse_v1_IntrospectResponse, _gatehouse_v1_IntrospectRequest__Output, _gatehouse_v1_IntrospectResponse__Output>
  Jwks: MethodDefinition<_gatehouse_v1_JwksRequest, _gatehouse_v1_JwkSet, _gatehouse_v1_JwksRequest__Output, _gatehouse_v1_JwkSet__Output>
  LinkMyIdentity: MethodDefinition<_gatehouse_v1_LinkMyIdentityRequest, _gatehouse_v1_MyIdentities, _gatehouse_v1_LinkMyIdentityRequest__Output, _gatehouse_v1_MyIdentities__Output>
  ListMyIdentities: MethodDefinition<_gatehouse_v1_ListMyIdentitiesRequest, _gatehouse_v1_MyIdentities, _gatehouse_v1_ListMyIdentitiesRequest__Output, _gatehouse_v1_MyIdentities__Output>
  Metadata: MethodDefinition<_gatehouse_v1_MetadataRequest, _gatehouse_v1_AuthorizationServerMetadata, _gatehouse_v1_MetadataRequest__Output, _gatehouse_v1_AuthorizationServerMetadata__Output>
  NativeLogin: MethodDefinition<_gatehouse_v1_NativeLoginRequest, _gatehouse_v1_NativeLoginResponse, _gatehouse_v1_NativeLoginRequest__Output, _gatehouse_v1_NativeLoginResponse__Output>
  Revoke: MethodDefinition<_gatehouse_v1_RevokeRequest, _gatehouse_v1_RevokeResponse, _gatehouse_v1_RevokeRequest__Output, _gatehouse_v1_RevokeResponse__Output>
  Token: MethodDefinition<_gatehouse_v1_TokenRequest, _gatehouse_v1_TokenResponse, _gatehouse_v1_TokenRequest__Output, _gatehouse_v1_TokenResponse__Output>
  UnlinkMyIdentity: MethodDefinition<_gatehouse_v1_UnlinkMyIdentityRequest, _gatehouse_v1_MyIdentities, _gatehouse_v1_UnlinkMyIdentityRequest__Output, _gatehouse_v1_MyIdentities__Output>
  UserInfo: MethodDefinition<_gatehouse_v1_UserInfoRequest, _gatehouse_v1_UserInfoResponse, _gatehouse_v1_UserInfoRequest__Output, _gatehouse_v1_UserInfoResponse__Output>
}
