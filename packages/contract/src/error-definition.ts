/** How an error code answers: given once per code (error-catalogue.ts and its family files). */
export interface ErrorDefinition {
  status: number;
  /** The API message; the portal shows its own translated text per code. */
  message: string;
}
