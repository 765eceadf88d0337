/** Written by eval/train-title-model.ts; the weights follow the model's feature names in order. */
export const TITLE_MODEL = {
  weights: [
    -2.427, 0.277, 0.512, 0.307, 0.211, -0.002, -0.193, 0.427, 0.27, 0.066, -0.184, 0.167, 0.246, -0.328, 0.207, 0.157,
    0.069, -0.183, 0.184, -0.065, 0.14, 0.17, 0.013, -0.012, 0.046, -0.121, -0.248, -0.042, 0.011, 0.091,
  ],
  threshold: 0.15,
} as const;
