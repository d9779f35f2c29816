// The feedback procedure's input: the single truth for its rules. Pure zod, so the form imports it
// for its HTML constraints and its counter (app/routes/feedback.tsx).
import { z } from '#domain/zod.ts';

export const FEEDBACK_MAX = 5000;

export const feedbackInput = z.object({
  message: z
    .string({ error: 'Skriv ett meddelande.' })
    // Browsers send line breaks as CRLF; count each as one character, as the text area does.
    .overwrite((s) => s.replace(/\r\n?/g, '\n'))
    .trim()
    .min(1, 'Skriv ett meddelande innan du skickar.')
    .max(FEEDBACK_MAX, `Meddelandet får vara högst ${FEEDBACK_MAX} tecken.`),
});
