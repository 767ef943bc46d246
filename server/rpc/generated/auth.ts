import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AccessRule as _gatehouse_v1_AccessRule, AccessRule__Output as _gatehouse_v1_AccessRule__Output } from './gatehouse/v1/AccessRule.ts';
import type { AppleNotificationRequest as _gatehouse_v1_AppleNotificationRequest, AppleNotificationRequest__Output as _gatehouse_v1_AppleNotificationRequest__Output } from './gatehouse/v1/AppleNotificationRequest.ts';
import type { AppleNotificationResponse as _gatehouse_v1_AppleNotificationResponse, AppleNotificationResponse__Output as _gatehouse_v1_AppleNotificationResponse__Output } from './gatehouse/v1/AppleNotificationResponse.ts';
import type { AppleWebCallbackRequest as _gatehouse_v1_AppleWebCallbackRequest, AppleWebCallbackRequest__Output as _gatehouse_v1_AppleWebCallbackRequest__Output } from './gatehouse/v1/AppleWebCallbackRequest.ts';
import type { AppleWebCallbackResponse as _gatehouse_v1_AppleWebCallbackResponse, AppleWebCallbackResponse__Output as _gatehouse_v1_AppleWebCallbackResponse__Output } from './gatehouse/v1/AppleWebCallbackResponse.ts';
import type { AppleWebLoginRequest as _gatehouse_v1_AppleWebLoginRequest, AppleWebLoginRequest__Output as _gatehouse_v1_AppleWebLoginRequest__Output } from './gatehouse/v1/AppleWebLoginRequest.ts';
import type { AppleWebLoginResponse as _gatehouse_v1_AppleWebLoginResponse, AppleWebLoginResponse__Output as _gatehouse_v1_AppleWebLoginResponse__Output } from './gatehouse/v1/AppleWebLoginResponse.ts';
import type { AuthServiceClient as _gatehouse_v1_AuthServiceClient, AuthServiceDefinition as _gatehouse_v1_AuthServiceDefinition } from './gatehouse/v1/AuthService.ts';
import type { AuthorizationServerMetadata as _gatehouse_v1_AuthorizationServerMetadata, AuthorizationServerMetadata__Output as _gatehouse_v1_AuthorizationServerMetadata__Output } from './gatehouse/v1/AuthorizationServerMetadata.ts';
import type { AuthorizeRequest as _gatehouse_v1_AuthorizeRequest, AuthorizeRequest__Output as _gatehouse_v1_AuthorizeRequest__Output } from './gatehouse/v1/AuthorizeRequest.ts';
import type { AuthorizeResponse as _gatehouse_v1_AuthorizeResponse, AuthorizeResponse__Output as _gatehouse_v1_AuthorizeResponse__Output } from './gatehouse/v1/AuthorizeResponse.ts';
import type { DeleteMeRequest as _gatehouse_v1_DeleteMeRequest, DeleteMeRequest__Output as _gatehouse_v1_DeleteMeRequest__Output } from './gatehouse/v1/DeleteMeRequest.ts';
import type { DeletedAccount as _gatehouse_v1_DeletedAccount, DeletedAccount__Output as _gatehouse_v1_DeletedAccount__Output } from './gatehouse/v1/DeletedAccount.ts';
import type { ErrorCodes as _gatehouse_v1_ErrorCodes, ErrorCodes__Output as _gatehouse_v1_ErrorCodes__Output } from './gatehouse/v1/ErrorCodes.ts';
import type { FieldLimits as _gatehouse_v1_FieldLimits, FieldLimits__Output as _gatehouse_v1_FieldLimits__Output } from './gatehouse/v1/FieldLimits.ts';
import type { FullName as _gatehouse_v1_FullName, FullName__Output as _gatehouse_v1_FullName__Output } from './gatehouse/v1/FullName.ts';
import type { IntrospectRequest as _gatehouse_v1_IntrospectRequest, IntrospectRequest__Output as _gatehouse_v1_IntrospectRequest__Output } from './gatehouse/v1/IntrospectRequest.ts';
import type { IntrospectResponse as _gatehouse_v1_IntrospectResponse, IntrospectResponse__Output as _gatehouse_v1_IntrospectResponse__Output } from './gatehouse/v1/IntrospectResponse.ts';
import type { Jwk as _gatehouse_v1_Jwk, Jwk__Output as _gatehouse_v1_Jwk__Output } from './gatehouse/v1/Jwk.ts';
import type { JwkSet as _gatehouse_v1_JwkSet, JwkSet__Output as _gatehouse_v1_JwkSet__Output } from './gatehouse/v1/JwkSet.ts';
import type { JwksRequest as _gatehouse_v1_JwksRequest, JwksRequest__Output as _gatehouse_v1_JwksRequest__Output } from './gatehouse/v1/JwksRequest.ts';
import type { LinkMyIdentityRequest as _gatehouse_v1_LinkMyIdentityRequest, LinkMyIdentityRequest__Output as _gatehouse_v1_LinkMyIdentityRequest__Output } from './gatehouse/v1/LinkMyIdentityRequest.ts';
import type { LinkedIdentity as _gatehouse_v1_LinkedIdentity, LinkedIdentity__Output as _gatehouse_v1_LinkedIdentity__Output } from './gatehouse/v1/LinkedIdentity.ts';
import type { ListMyIdentitiesRequest as _gatehouse_v1_ListMyIdentitiesRequest, ListMyIdentitiesRequest__Output as _gatehouse_v1_ListMyIdentitiesRequest__Output } from './gatehouse/v1/ListMyIdentitiesRequest.ts';
import type { MetadataRequest as _gatehouse_v1_MetadataRequest, MetadataRequest__Output as _gatehouse_v1_MetadataRequest__Output } from './gatehouse/v1/MetadataRequest.ts';
import type { MyIdentities as _gatehouse_v1_MyIdentities, MyIdentities__Output as _gatehouse_v1_MyIdentities__Output } from './gatehouse/v1/MyIdentities.ts';
import type { NativeLoginRequest as _gatehouse_v1_NativeLoginRequest, NativeLoginRequest__Output as _gatehouse_v1_NativeLoginRequest__Output } from './gatehouse/v1/NativeLoginRequest.ts';
import type { NativeLoginResponse as _gatehouse_v1_NativeLoginResponse, NativeLoginResponse__Output as _gatehouse_v1_NativeLoginResponse__Output } from './gatehouse/v1/NativeLoginResponse.ts';
import type { RevokeRequest as _gatehouse_v1_RevokeRequest, RevokeRequest__Output as _gatehouse_v1_RevokeRequest__Output } from './gatehouse/v1/RevokeRequest.ts';
import type { RevokeResponse as _gatehouse_v1_RevokeResponse, RevokeResponse__Output as _gatehouse_v1_RevokeResponse__Output } from './gatehouse/v1/RevokeResponse.ts';
import type { TokenRequest as _gatehouse_v1_TokenRequest, TokenRequest__Output as _gatehouse_v1_TokenRequest__Output } from './gatehouse/v1/TokenRequest.ts';
import type { TokenResponse as _gatehouse_v1_TokenResponse, TokenResponse__Output as _gatehouse_v1_TokenResponse__Output } from './gatehouse/v1/TokenResponse.ts';
import type { UnlinkMyIdentityRequest as _gatehouse_v1_UnlinkMyIdentityRequest, UnlinkMyIdentityRequest__Output as _gatehouse_v1_UnlinkMyIdentityRequest__Output } from './gatehouse/v1/UnlinkMyIdentityRequest.ts';
import type { UserInfoRequest as _gatehouse_v1_UserInfoRequest, UserInfoRequest__Output as _gatehouse_v1_UserInfoRequest__Output } from './gatehouse/v1/UserInfoRequest.ts';
import type { UserInfoResponse as _gatehouse_v1_UserInfoResponse, UserInfoResponse__Output as _gatehouse_v1_UserInfoResponse__Output } from './gatehouse/v1/UserInfoResponse.ts';
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
      AppleNotificationRequest: MessageTypeDefinition<_gatehouse_v1_AppleNotificationRequest, _gatehouse_v1_AppleNotificationRequest__Output>
      AppleNotificationResponse: MessageTypeDefinition<_gatehouse_v1_AppleNotificationResponse, _gatehouse_v1_AppleNotificationResponse__Output>
      AppleWebCallbackRequest: MessageTypeDefinition<_gatehouse_v1_AppleWebCallbackRequest, _gatehouse_v1_AppleWebCallbackRequest__Output>
      AppleWebCallbackResponse: MessageTypeDefinition<_gatehouse_v1_AppleWebCallbackResponse, _gatehouse_v1_AppleWebCallbackResponse__Output>
      AppleWebLoginRequest: MessageTypeDefinition<_gatehouse_v1_AppleWebLoginRequest, _gatehouse_v1_AppleWebLoginRequest__Output>
      AppleWebLoginResponse: MessageTypeDefinition<_gatehouse_v1_AppleWebLoginResponse, _gatehouse_v1_AppleWebLoginResponse__Output>
      AuthService: SubtypeConstructor<typeof grpc.Client, _gatehouse_v1_AuthServiceClient> & { service: _gatehouse_v1_AuthServiceDefinition }
      AuthorizationServerMetadata: MessageTypeDefinition<_gatehouse_v1_AuthorizationServerMetadata, _gatehouse_v1_AuthorizationServerMetadata__Output>
      AuthorizeRequest: MessageTypeDefinition<_gatehouse_v1_AuthorizeRequest, _gatehouse_v1_AuthorizeRequest__Output>
      AuthorizeResponse: MessageTypeDefinition<_gatehouse_v1_AuthorizeResponse, _gatehouse_v1_AuthorizeResponse__Output>
      DeleteMeRequest: MessageTypeDefinition<_gatehouse_v1_DeleteMeRequest, _gatehouse_v1_DeleteMeRequest__Output>
      DeletedAccount: MessageTypeDefinition<_gatehouse_v1_DeletedAccount, _gatehouse_v1_DeletedAccount__Output>
      ErrorCodes: MessageTypeDefinition<_gatehouse_v1_ErrorCodes, _gatehouse_v1_ErrorCodes__Output>
      FieldLimits: MessageTypeDefinition<_gatehouse_v1_FieldLimits, _gatehouse_v1_FieldLimits__Output>
      FullName: MessageTypeDefinition<_gatehouse_v1_FullName, _gatehouse_v1_FullName__Output>
      IntrospectRequest: MessageTypeDefinition<_gatehouse_v1_IntrospectRequest, _gatehouse_v1_IntrospectRequest__Output>
      IntrospectResponse: MessageTypeDefinition<_gatehouse_v1_IntrospectResponse, _gatehouse_v1_IntrospectResponse__Output>
      Jwk: MessageTypeDefinition<_gatehouse_v1_Jwk, _gatehouse_v1_Jwk__Output>
      JwkSet: MessageTypeDefinition<_gatehouse_v1_JwkSet, _gatehouse_v1_JwkSet__Output>
      JwksRequest: MessageTypeDefinition<_gatehouse_v1_JwksRequest, _gatehouse_v1_JwksRequest__Output>
      LinkMyIdentityRequest: MessageTypeDefinition<_gatehouse_v1_LinkMyIdentityRequest, _gatehouse_v1_LinkMyIdentityRequest__Output>
      LinkedIdentity: MessageTypeDefinition<_gatehouse_v1_LinkedIdentity, _gatehouse_v1_LinkedIdentity__Output>
      ListMyIdentitiesRequest: MessageTypeDefinition<_gatehouse_v1_ListMyIdentitiesRequest, _gatehouse_v1_ListMyIdentitiesRequest__Output>
      MetadataRequest: MessageTypeDefinition<_gatehouse_v1_MetadataRequest, _gatehouse_v1_MetadataRequest__Output>
      MyIdentities: MessageTypeDefinition<_gatehouse_v1_MyIdentities, _gatehouse_v1_MyIdentities__Output>
      NativeLoginRequest: MessageTypeDefinition<_gatehouse_v1_NativeLoginRequest, _gatehouse_v1_NativeLoginRequest__Output>
      NativeLoginResponse: MessageTypeDefinition<_gatehouse_v1_NativeLoginResponse, _gatehouse_v1_NativeLoginResponse__Output>
      RevokeRequest: MessageTypeDefinition<_gatehouse_v1_RevokeRequest, _gatehouse_v1_RevokeRequest__Output>
      RevokeResponse: MessageTypeDefinition<_gatehouse_v1_RevokeResponse, _gatehouse_v1_RevokeResponse__Output>
      TokenRequest: MessageTypeDefinition<_gatehouse_v1_TokenRequest, _gatehouse_v1_TokenRequest__Output>
      TokenResponse: MessageTypeDefinition<_gatehouse_v1_TokenResponse, _gatehouse_v1_TokenResponse__Output>
      UnlinkMyIdentityRequest: MessageTypeDefinition<_gatehouse_v1_UnlinkMyIdentityRequest, _gatehouse_v1_UnlinkMyIdentityRequest__Output>
      UserInfoRequest: MessageTypeDefinition<_gatehouse_v1_UserInfoRequest, _gatehouse_v1_UserInfoRequest__Output>
      UserInfoResponse: MessageTypeDefinition<_gatehouse_v1_UserInfoResponse, _gatehouse_v1_UserInfoResponse__Output>
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

