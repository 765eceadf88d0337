/** The `detail` of a handler's 422 (SPEC §7.1): one validation issue at `loc` with the contract's message. */
export const issue = (loc: Array<string | number>, msg: string) => [{ loc, msg, type: 'value_error' }];

/** The whole body of such a 422. */
export const invalid = (loc: Array<string | number>, msg: string) => ({ detail: issue(loc, msg) });
