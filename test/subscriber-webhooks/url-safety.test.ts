import dns from 'node:dns';
import {
  checkWebhookUrl,
  checkWebhookUrlWithoutDns,
  isAllowedAddress,
  isLoopbackAddress,
  isPublicAddress,
  safeLookup,
  webhookPolicy,
} from '#shared/subscribers/url-safety';

const production = { allowInsecureLocal: false };
const local = { allowInsecureLocal: true };

afterEach(() => jest.restoreAllMocks());

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '169.254.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    '2001:db8::1',
    '2001::1', // Teredo
    '3fff::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '::ffff:0.0.0.0',
    '::127.0.0.1', // deprecated IPv4-compatible
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '64:ff9b::169.254.169.254',
    '64:ff9b:1::5db8:d822', // local-use NAT64
    '2002:a00:1::1', // 6to4 of 10.0.0.1
    'not an ip',
    '',
    'localhost',
    '1.2.3',
    '256.1.1.1',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.169.0.1',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '::ffff:93.184.216.34',
    '::ffff:5db8:d822',
    '64:ff9b::5db8:d822', // NAT64 of 93.184.216.34
    '2002:5db8:d822::1',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('recognises loopback, and allows it only in local mode', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopbackAddress(ip)).toBe(true);
      expect(isAllowedAddress(ip, production)).toBe(false);
      expect(isAllowedAddress(ip, local)).toBe(true);
    }
    for (const ip of ['10.0.0.1', '169.254.169.254', 'fd00:ec2::254', '::', '0.0.0.0']) {
      expect(isLoopbackAddress(ip)).toBe(false);
      expect(isAllowedAddress(ip, local)).toBe(false);
    }
    expect(isAllowedAddress('93.184.216.34', production)).toBe(true);
  });
});

describe('webhookPolicy', () => {
  const saved = process.env.ALLOW_INSECURE_WEBHOOKS;
  afterEach(() => {
    if (saved === undefined) delete process.env.ALLOW_INSECURE_WEBHOOKS;
    else process.env.ALLOW_INSECURE_WEBHOOKS = saved;
  });

  it('is local only for exactly "true"', () => {
    process.env.ALLOW_INSECURE_WEBHOOKS = 'true';
    expect(webhookPolicy()).toEqual({ allowInsecureLocal: true });
    process.env.ALLOW_INSECURE_WEBHOOKS = '1';
    expect(webhookPolicy()).toEqual({ allowInsecureLocal: false });
    delete process.env.ALLOW_INSECURE_WEBHOOKS;
    expect(webhookPolicy()).toEqual({ allowInsecureLocal: false });
  });
});

describe('checkWebhookUrl', () => {
  const refused = async (url: string, policy = production) => {
    const result = await checkWebhookUrl(url, policy);
    expect(result.ok).toBe(false);
    return result.ok ? '' : result.reason;
  };
  const allowed = async (url: string, policy = production) => {
    const result = await checkWebhookUrl(url, policy);
    expect(result).toEqual({ ok: true, url: expect.any(URL) });
    return result.ok ? result.url : undefined;
  };

  it('requires https in production', async () => {
    expect(await refused('http://93.184.216.34/hook')).toBe('URL must use https');
    expect(await refused('ftp://93.184.216.34/hook')).toBe('URL must use https');
    expect(await refused('ftp://93.184.216.34/hook', local)).toBe('URL must use http or https');
    expect((await allowed('https://93.184.216.34/hook?a=1'))?.href).toBe('https://93.184.216.34/hook?a=1');
    expect(await allowed('https://[2606:4700::1111]:8443/x')).toBeDefined();
  });

  it('refuses private, reserved and metadata IP literals', async () => {
    for (const url of [
      'https://10.0.0.1/x',
      'https://192.168.0.10/x',
      'https://172.20.1.1/x',
      'https://100.100.100.200/x',
      'https://0.0.0.0/x',
      'https://[fd00:ec2::254]/latest/meta-data/',
      'https://[::ffff:169.254.169.254]/',
      'https://[fe80::1]/',
      'https://[::]/',
    ]) {
      expect(await refused(url)).toBe('URL must not point to a private, loopback or reserved address');
      await refused(url, local);
    }
  });

  it('refuses loopback in production and allows it (http too) in local mode', async () => {
    await refused('https://127.0.0.1/x');
    await refused('https://[::1]/x');
    await refused('https://2130706433/x'); // 127.0.0.1 as a number
    await refused('https://0x7f.1/x');
    await allowed('https://127.0.0.1/x', local);
    await allowed('http://127.0.0.1:8080/x', local);
    await allowed('http://[::1]/x', local);
  });

  it('refuses the metadata address in both modes', async () => {
    await refused('https://169.254.169.254/');
    await refused('http://169.254.169.254/latest/meta-data/', local);
  });

  it('refuses user info', async () => {
    expect(await refused('https://user:pass@93.184.216.34/')).toBe('URL must not contain a user name or password');
    await refused('https://user@93.184.216.34/');
    await refused('http://user:pass@127.0.0.1/', local);
  });

  it('refuses malformed and overlong URLs', async () => {
    for (const url of ['', 'not a url', '/relative/path', 'https://', 'https://exa mple.com/', 'https://[::1/']) {
      await refused(url);
    }
    expect(await refused(`https://93.184.216.34/${'a'.repeat(2048)}`)).toMatch(/at most 2048/);
  });

  it('refuses localhost and local names in production without resolving them', async () => {
    const lookup = jest.spyOn(dns.promises, 'lookup');
    for (const url of [
      'https://localhost/x',
      'https://LOCALHOST./x',
      'https://app.localhost/x',
      'https://metadata.google.internal/',
      'https://printer.local/',
    ]) {
      expect(await refused(url)).toBe('URL must not point to a local host name');
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it('allows localhost in local mode because it resolves to loopback', async () => {
    await allowed('http://localhost:3000/hook', local);
  });

  describe('with resolved names (DNS mocked)', () => {
    const resolveTo = (...addresses: string[]) =>
      jest.spyOn(dns.promises, 'lookup').mockResolvedValue(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) as never);

    it('allows a name whose addresses are all public', async () => {
      const lookup = resolveTo('93.184.216.34', '2606:4700::1111');
      await allowed('https://hooks.example.test/x');
      expect(lookup).toHaveBeenCalledWith('hooks.example.test', expect.objectContaining({ all: true }));
    });

    it('refuses a name if any address is not public', async () => {
      resolveTo('93.184.216.34', '10.1.2.3');
      expect(await refused('https://hooks.example.test/x')).toBe('host resolves to a non-public address (10.1.2.3)');
      resolveTo('169.254.169.254');
      await refused('https://hooks.example.test/x', local);
    });

    it('allows a loopback name only in local mode', async () => {
      resolveTo('127.0.0.1');
      await refused('https://dev.example.test/x');
      await allowed('http://dev.example.test/x', local);
    });

    it('in local mode allows local names only when they resolve to loopback', async () => {
      resolveTo('93.184.216.34');
      expect(await refused('http://box.internal/x', local)).toBe('local host name must resolve to loopback');
      resolveTo('127.0.0.1', '::1');
      await allowed('http://box.internal/x', local);
    });

    it('refuses names that do not resolve', async () => {
      jest.spyOn(dns.promises, 'lookup').mockRejectedValue(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
      expect(await refused('https://nowhere.example.test/')).toBe('host name could not be resolved');
      resolveTo();
      await refused('https://nowhere.example.test/');
    });
  });

  it('checkWebhookUrlWithoutDns never resolves', () => {
    const lookup = jest.spyOn(dns.promises, 'lookup');
    expect(checkWebhookUrlWithoutDns('https://hooks.example.test/x', production).ok).toBe(true);
    expect(checkWebhookUrlWithoutDns('https://10.0.0.1/x', production).ok).toBe(false);
    expect(lookup).not.toHaveBeenCalled();
  });
});

describe('safeLookup', () => {
  type Result = { err: NodeJS.ErrnoException | null; address?: unknown; family?: number };
  const call = (policy: typeof production, host: string, options: object | number | undefined) =>
    new Promise<Result>((resolve) => {
      const lookup = safeLookup(policy) as unknown as (...args: unknown[]) => void;
      const cb = (err: NodeJS.ErrnoException | null, address?: unknown, family?: number) => resolve({ err, address, family });
      if (options === undefined) lookup(host, cb);
      else lookup(host, options, cb);
    });

  const resolveTo = (...addresses: string[]) =>
    jest.spyOn(dns, 'lookup').mockImplementation(((_host: string, _opts: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) =>
      cb(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      )) as never);

  it('passes public addresses through in both call styles', async () => {
    const lookup = resolveTo('93.184.216.34', '2606:4700::1111');
    expect(await call(production, 'hooks.example.test', { all: true })).toEqual({
      err: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
      family: undefined,
    });
    expect(await call(production, 'hooks.example.test', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await call(production, 'hooks.example.test', 4)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await call(production, 'hooks.example.test', undefined)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(lookup).toHaveBeenCalledWith('hooks.example.test', expect.objectContaining({ all: true }), expect.any(Function));
  });

  it('refuses when any address is not allowed (DNS rebinding)', async () => {
    resolveTo('93.184.216.34', '169.254.169.254');
    const { err, address } = await call(production, 'hooks.example.test', { all: true });
    expect(err?.code).toBe('EWEBHOOKADDRESS');
    expect(err?.message).toMatch(/^address not allowed/);
    expect(address).toBeUndefined();
    resolveTo('127.0.0.1');
    expect((await call(production, 'hooks.example.test', {})).err?.code).toBe('EWEBHOOKADDRESS');
    expect((await call(local, 'hooks.example.test', {})).err).toBeNull();
  });

  it('passes resolution errors through', async () => {
    jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((_h: string, _o: unknown, cb: (e: Error) => void) =>
        cb(Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }))) as never);
    expect((await call(production, 'x.example.test', {})).err?.code).toBe('ENOTFOUND');
  });

  it('really resolves localhost: refused in production, loopback in local mode', async () => {
    expect((await call(production, 'localhost', { all: true })).err?.code).toBe('EWEBHOOKADDRESS');
    const { err, address } = await call(local, 'localhost', {});
    expect(err).toBeNull();
    expect(isLoopbackAddress(address as string)).toBe(true);
  });
});
