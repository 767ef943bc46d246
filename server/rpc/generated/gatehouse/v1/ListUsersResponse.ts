// Original file: gatehouse/v1/admin.proto

import type { User as _gatehouse_v1_User, User__Output as _gatehouse_v1_User__Output } from '../../gatehouse/v1/User.ts';

export interface ListUsersResponse {
  'users'?: (_gatehouse_v1_User)[];
}

export interface ListUsersResponse__Output {
  'users': (_gatehouse_v1_User__Output)[];
}
