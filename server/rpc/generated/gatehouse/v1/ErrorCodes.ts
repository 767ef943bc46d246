// Original file: gatehouse/v1/options.proto


export interface ErrorCodes {
  'codes'?: (string)[];
}

export interface ErrorCodes__Output {
  'codes': (string)[];
}
