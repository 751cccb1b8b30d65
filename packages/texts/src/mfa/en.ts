export const mfaEn = {
  heading: 'Two-step verification',
} as const;
