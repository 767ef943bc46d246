// Original file: gatehouse/v1/options.proto


export interface AccessRule {
  'permission'?: (string);
  'public'?: (boolean);
  'userToken'?: (boolean);
  'realmCheckedByHandler'?: (boolean);
  'anyApiKey'?: (boolean);
}

export interface AccessRule__Output {
  'permission': (string);
  'public': (boolean);
  'userToken': (boolean);
  'realmCheckedByHandler': (boolean);
  'anyApiKey': (boolean);
}
