// Feedback procedure (POST /api/feedback): stored with the user and company, then mailed to support.
import { t } from '#domain/texts/common.ts';
import { z } from '#domain/zod.ts';
import { submitFeedback } from '#server/feedback/feedback.ts';
import { feedbackInput } from '#domain/feedback/schemas.ts';
import { companyUserProcedure, router, idempotent } from '#server/trpc/trpc.ts';

export const feedbackRouter = router({
  send: companyUserProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/feedback',
        tags: ['feedback'],
        summary: 'Send feedback to support',
        description:
          "A message to support, stored with the user and company and mailed on; the answer is the feedback's id.",
      },
    })
    .use(idempotent)
    .input(feedbackInput)
    .output(z.object({ success: z.boolean(), id: z.number() }))
    .mutation(async ({ ctx, input }) => {
      const s = ctx.session;
      const { id } = await submitFeedback(
        ctx.services,
        ctx.em,
        { userId: s.userId, name: s.name, email: s.email, companyId: ctx.companyId, companyName: s.companyName },
        input.message,
      );
      // The thank-you: a toast, and after a form post a one-time flash, so a reload does not repeat it.
      await ctx.notify('info', t.feedback.thanks);
      return { success: true, id };
    }),
});
