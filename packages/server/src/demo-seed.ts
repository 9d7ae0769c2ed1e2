/** What seeding the sandbox demo made, shown once at first start. */
export interface DemoSeed {
  organizationId: string;
  memberId: string;
  apiKey: string;
  /** The demo member's and the first operator admin's sign-ins (docs/design/people-and-apps.md), shown once with the key. */
  memberSignIn: { email: string; password: string };
  operatorSignIn: { email: string; password: string };
}
