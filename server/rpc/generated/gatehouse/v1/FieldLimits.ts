// Original file: gatehouse/v1/options.proto

import type { Long } from '@grpc/proto-loader';

export interface FieldLimits {
  'minLength'?: (number);
  'maxLength'?: (number);
  'minimum'?: (number | string | Long);
  'maximum'?: (number | string | Long);
  'pattern'?: (string);
  'patternDescription'?: (string);
  '_minLength'?: "minLength";
  '_maxLength'?: "maxLength";
  '_minimum'?: "minimum";
  '_maximum'?: "maximum";
  '_pattern'?: "pattern";
  '_patternDescription'?: "patternDescription";
}

export interface FieldLimits__Output {
  'minLength'?: (number);
  'maxLength'?: (number);
  'minimum'?: (number);
  'maximum'?: (number);
  'pattern'?: (string);
  'patternDescription'?: (string);
}
