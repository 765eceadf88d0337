/**
 * What `assert.rejects` compares a service's refusal with: its HTTP status and the catalogue's detail
 * text (matched by value, so the test does not depend on where the error class lives).
 */
export const refusal = (statusCode: number, message: string) => ({ statusCode, message });
