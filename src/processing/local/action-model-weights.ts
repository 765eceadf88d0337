/** Written by eval/train-action-model.ts; the order of weights follows FEATURE_NAMES in action-model.ts. */
export const ACTION_MODEL = {
  weights: [
    -0.469, -0.066, -0.215, 0.393, -0.113, 0.128, 0.371, -0.211, -0.288, 0.15, -0.632, 0.501, 0.844, -0.359, 0.527,
    -0.445, 0.159, 0.635, 0.061, 0.274, 0.159, 0.075, -0.406,
  ],
  threshold: 0.4,
} as const;
