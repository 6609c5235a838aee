import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { useLocalStack } from '../support/local-stack';
import { startReceiver } from '../support/receiver';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const { local, call } = useLocalStack();
const simulator = simulatorControl(() => local().stack.simulator_url);

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.stop());

const CUSTOMER = '14155558100';
const message = async (id: string) => (await call('GET', `/api/v1/messages/${id}`)).body.data;
const inbound = async () => (await call('GET', `/api/v1/messages?direction=inbound&phone=${CUSTOMER}`)).body.data;

describe('a conversation on the local stack, as in the README walk-through', () => {
  it('customer sends a photo, the agent answers with reply buttons quoting it, the customer taps one, the agent marks it read and sends a flow that the customer answers: each step in the API and as signed webhooks', async () => {
    const sub = (await call('POST', '/api/v1/webhooks', { url: receiver.url, events: ['message.received', 'message.sent'] })).body.data;
    const events = () =>
      receiver.received.map(
        (r) => new Webhook(sub.signing_secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, any> },
      );
    const phoneNumberId = local().credentials.phone_number_id;

    // 1. The customer sends a photo; its copy becomes downloadable.
    const { media_id } = await simulator.inbound({
      phone_number_id: phoneNumberId,
      from: CUSTOMER,
      type: 'image',
      image: { caption: 'The box arrived crushed' },
      name: 'Rita',
    });
    const [photo] = await eventually(inbound, (list) => list.length === 1);
    const copied = await eventually(
      () => message(photo.id),
      (m) => m.media.url !== null,
      30_000,
    );
    expect(copied).toMatchObject({ message_type: 'image', content: 'The box arrived crushed', media: { media_id, mime_type: 'image/jpeg' } });
    const bytes = Buffer.from(await (await fetch(copied.media.url)).arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(copied.media.sha256);

    // 2. The agent answers with reply buttons, quoting the photo.
    const reply = await call('POST', '/api/v1/messages', {
      to: `+${CUSTOMER}`,
      reply_to: photo.id,
      interactive: {
        type: 'button',
        body: 'So sorry! Refund or replacement?',
        buttons: [
          { id: 'refund', title: 'Refund' },
          { id: 'replace', title: 'Replacement' },
        ],
      },
    });
    expect(reply.status).toBe(202);
    const sent = await eventually(
      () => message(reply.body.data.message_id),
      (m) => m.provider_message_id !== null,
      30_000,
    );
    const [request] = await simulator.sends(CUSTOMER);
    expect(request.request).toMatchObject({ type: 'interactive', context: { message_id: copied.provider_message_id } });

    // 3. The customer taps "Replacement".
    await simulator.inbound({
      phone_number_id: phoneNumberId,
      from: CUSTOMER,
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'replace', title: 'Replacement' } },
      context: sent.provider_message_id,
    });
    const list = await eventually(inbound, (l) => l.length === 2);
    const tap = list.find((m: { message_type: string }) => m.message_type === 'interactive');
    tap.provider_message_id = (await message(tap.id)).provider_message_id;
    expect(await message(tap.id)).toMatchObject({
      message_type: 'interactive',
      content: 'Replacement',
      interactive: { type: 'button_reply', id: 'replace', title: 'Replacement' },
      context: { message_id: reply.body.data.message_id, provider_message_id: sent.provider_message_id },
    });

    // 4. The agent marks the tap read, showing that a reply is being typed.
    const read = await call('POST', `/api/v1/messages/${tap.id}/read`, { typing: true });
    expect(read.body.data).toEqual({ message_id: tap.id, read: true, typing: true });
    const receipts = await simulator.readReceipts();
    expect(receipts.map((r) => r.request)).toContainEqual({
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: tap.provider_message_id,
      typing_indicator: { type: 'text' },
    });

    // 5. A flow collects the claim; the customer's answers come back parsed.
    const flow = await call('POST', '/api/v1/messages', {
      to: `+${CUSTOMER}`,
      interactive: {
        type: 'flow',
        body: 'Tell us how to fix it',
        flow_id: '1197715005513101',
        flow_cta: 'Open form',
        flow_token: 'claim-4711',
        screen: 'CLAIM',
        data: { order: 'A-1001' },
      },
    });
    expect(flow.status).toBe(202);
    const flowSent = await eventually(
      () => message(flow.body.data.message_id),
      (m) => m.provider_message_id !== null,
      30_000,
    );
    await simulator.flowReply({
      phone_number_id: phoneNumberId,
      from: CUSTOMER,
      context: flowSent.provider_message_id,
      response: { remedy: 'replacement', photos: 1 },
    });
    const withAnswers = await eventually(inbound, (l) => l.length === 3);
    const answers = await message(withAnswers.find((m: { id: string }) => m.id !== photo.id && m.id !== tap.id).id);
    expect(answers).toMatchObject({
      message_type: 'interactive',
      content: 'Sent',
      interactive: { type: 'nfm_reply' },
      flow_response: { flow_token: 'claim-4711', remedy: 'replacement', photos: 1 },
      context: { message_id: flow.body.data.message_id },
    });

    // Each step reached the subscriber, signed.
    const received = await eventually(
      async () => events(),
      (e) =>
        e.filter((x) => x.type === 'message.received').length === 3 && e.some((x) => x.type === 'message.sent' && x.data.id === reply.body.data.message_id),
      30_000,
    );
    // Delivery order is not guaranteed: each event is found by its message.
    const receivedEvent = (id: string) => received.find((e) => e.type === 'message.received' && e.data.id === id)!;
    const [photoEvent, tapEvent, answersEvent] = [photo.id, tap.id, answers.id].map(receivedEvent);
    expect(answersEvent.data).toMatchObject({ id: answers.id, flow_response: { flow_token: 'claim-4711', remedy: 'replacement' } });
    expect(photoEvent.data).toMatchObject({
      id: photo.id,
      message_type: 'image',
      media: { media_id, caption: 'The box arrived crushed' },
      contact_id: expect.any(String),
    });
    expect(tapEvent.data).toMatchObject({ message_type: 'interactive', interactive: { id: 'replace' }, context: { message_id: reply.body.data.message_id } });
    expect(received.find((e) => e.type === 'message.sent' && e.data.id === reply.body.data.message_id)!.data).toMatchObject({
      message_type: 'interactive',
      context: { message_id: photo.id },
    });
    // Five steps, each waiting on the stack's queues: more than the default 30 s on a loaded runner.
  }, 90_000);
});

describe('a customer known only by a user id, on the local stack (contract §21)', () => {
  it('writes without a number, gets a reply through `recipient`, and cannot be sent an OTP', async () => {
    const userId = 'US.20261125000000000042';
    const phoneNumberId = local().credentials.phone_number_id;
    await simulator.inbound({ phone_number_id: phoneNumberId, user_id: userId, username: 'rita.b', text: 'Is my order late?' } as never);
    // The only inbound message without a number in this stack.
    const received = await eventually(
      async () => (await call('GET', '/api/v1/messages?direction=inbound')).body.data.find((m: { phone_number: string }) => m.phone_number === ''),
      (m) => m !== undefined,
    );
    expect(await message(received.id)).toMatchObject({ user_id: userId, username: 'rita.b', content: 'Is my order late?' });

    const reply = await call('POST', '/api/v1/messages', { to_user_id: userId, text: 'It ships today.' });
    expect(reply.status).toBe(202);
    const [sent] = await eventually(
      () => simulator.sends(userId),
      (list) => list.length === 1,
    );
    expect(sent.request).toMatchObject({ recipient: userId, text: { body: 'It ships today.' } });
    expect(sent.request).not.toHaveProperty('to');

    await call('POST', '/api/v1/templates/sync');
    const otp = await call('POST', '/api/v1/messages', { to_user_id: userId, template: 'login_code', variables: ['482913'] });
    expect(otp.status).toBe(422);
    expect(otp.body.error.code).toBe('phone_number_required');
  });
});
