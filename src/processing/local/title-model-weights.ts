/** Written by eval/train-title-model.ts; the weights follow the model's feature names in order. */
export const TITLE_MODEL = {
  weights: [
    -2.391, 0.288, 0.528, 0.332, 0.227, 0.008, -0.212, 0.442, 0.289, 0.114, -0.197, 0.153, 0.25, -0.321, 0.219, 0.154,
    0.087, -0.222, 0.21, -0.059, 0.152, 0.173, 0.025, -0.002, 0.058, -0.128, -0.23, -0.04, 0.021, 0.025,
  ],
  threshold: 0.15,
} as const;
