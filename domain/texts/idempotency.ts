// The Swedish texts of the REST paths' Idempotency-Key header (server/http/idempotency.ts): a bad key, a key
// used for another request, and a key whose first request is still running.
export const tIdempotency = {
  badKey: 'Idempotency-Key ska vara 1 till 255 synliga ASCII-tecken (utan mellanslag).',
  otherRequest:
    'Idempotency-Key har redan använts för en annan begäran (en annan metod, sökväg eller kropp). Använd en ny nyckel för en ny begäran.',
  stillRunning: 'En begäran med samma Idempotency-Key pågår fortfarande. Försök igen om en stund.',
} as const;
