// Original file: gatehouse/v1/pages.proto


export interface ConsoleAssetRequest {
  'realmId'?: (string);
  'file'?: (string);
}

export interface ConsoleAssetRequest__Output {
  'realmId': (string);
  'file': (string);
}
