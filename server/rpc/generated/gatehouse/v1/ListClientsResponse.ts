// Original file: gatehouse/v1/admin.proto

import type { Client as _gatehouse_v1_Client, Client__Output as _gatehouse_v1_Client__Output } from '../../gatehouse/v1/Client.ts';

export interface ListClientsResponse {
  'clients'?: (_gatehouse_v1_Client)[];
}

export interface ListClientsResponse__Output {
  'clients': (_gatehouse_v1_Client__Output)[];
}
