/** The probability a logistic model gives a feature vector (weights trained offline, see eval/logistic.ts). */
export function probability(features: ReadonlyArray<number>, weights: ReadonlyArray<number>): number {
  let sum = 0;
  for (let index = 0; index < features.length; index++) sum += features[index] * (weights[index] ?? 0);
  return 1 / (1 + Math.exp(-sum));
}

/** A yes/no feature as the number a model multiplies. */
export function flag(value: boolean): number {
  return value ? 1 : 0;
}
