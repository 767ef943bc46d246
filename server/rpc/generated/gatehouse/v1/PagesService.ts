// Original file: gatehouse/v1/pages.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConsoleAssetRequest as _gatehouse_v1_ConsoleAssetRequest, ConsoleAssetRequest__Output as _gatehouse_v1_ConsoleAssetRequest__Output } from '../../gatehouse/v1/ConsoleAssetRequest.ts';
import type { HttpBody as _google_api_HttpBody, HttpBody__Output as _google_api_HttpBody__Output } from '../../google/api/HttpBody.ts';
import type { PageRequest as _gatehouse_v1_PageRequest, PageRequest__Output as _gatehouse_v1_PageRequest__Output } from '../../gatehouse/v1/PageRequest.ts';

export interface PagesServiceClient extends grpc.Client {
  ConsoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAsset(argument: _gatehouse_v1_ConsoleAssetRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  ConsoleAuditPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleAuditPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleAuditPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleAuditPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAuditPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAuditPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAuditPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleAuditPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  ConsoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleDefaultConfigPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  ConsoleHome(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleHome(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleHome(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleHome(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleHome(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleHome(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleHome(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleHome(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  ConsoleMappingsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleMappingsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleMappingsPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleMappingsPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleMappingsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleMappingsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleMappingsPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleMappingsPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  ConsoleUsersPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleUsersPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleUsersPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleUsersPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleUsersPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleUsersPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleUsersPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleUsersPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  ConsoleWebhooksPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleWebhooksPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleWebhooksPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  ConsoleWebhooksPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleWebhooksPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleWebhooksPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleWebhooksPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  consoleWebhooksPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  UserPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  UserPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsScript(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsScript(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
}

export interface PagesServiceHandlers extends grpc.UntypedServiceImplementation {
  ConsoleAsset: grpc.handleUnaryCall<_gatehouse_v1_ConsoleAssetRequest__Output, _google_api_HttpBody>;
  
  ConsoleAuditPage: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  ConsoleDefaultConfigPage: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  ConsoleHome: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  ConsoleMappingsPage: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  ConsoleUsersPage: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  ConsoleWebhooksPage: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  UserPointsPage: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  UserPointsScript: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  UserPointsStyle: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
}

export interface PagesServiceDefinition extends grpc.ServiceDefinition {
  ConsoleAsset: MethodDefinition<_gatehouse_v1_ConsoleAssetRequest, _google_api_HttpBody, _gatehouse_v1_ConsoleAssetRequest__Output, _google_api_HttpBody__Output>
  ConsoleAuditPage: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  ConsoleDefaultConfigPage: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  ConsoleHome: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  ConsoleMappingsPage: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  ConsoleUsersPage: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  ConsoleWebhooksPage: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  UserPointsPage: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  UserPointsScript: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  UserPointsStyle: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
}
