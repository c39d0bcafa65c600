<?php
// Tests of receiver.php: php test_receiver.php (from this folder). No network: fflkit_receive() and
// the store are called directly, with a clock of the test's own. Prints a line per test and
// "N passed, N failed"; exits 1 when one failed.

declare(strict_types=1);

require __DIR__ . '/receiver.php';

const SECRET = 'whsec_php0Rece1ver00000000000000000000000';

$passed = 0;
$failed = 0;

function test(string $name, Closure $body): void
{
    global $passed, $failed;
    try {
        $body();
        $passed++;
        echo "ok   $name\n";
    } catch (Throwable $error) {
        $failed++;
        echo "FAIL $name: {$error->getMessage()}\n";
    }
}

function same(mixed $expected, mixed $actual): void
{
    if ($expected !== $actual) {
        throw new RuntimeException('expected ' . json_encode($expected) . ', got ' . json_encode($actual));
    }
}

function sign(string $body, string $secret = SECRET): string
{
    return 'sha256=' . hash_hmac('sha256', $body, $secret);
}

/** @return array{0: string, 1: array<string, string>} */
function delivery(string $event = 'receipt.created', string $deliveryId = '9b2f0c1e-0000-4000-8000-000000000001', int $receiptId = 42): array
{
    $body = json_encode(['event' => $event, 'timestamp' => '2025-03-14T15:00:00.000Z', 'data' => ['id' => $receiptId, 'serial_number' => 'PHP123']]);
    return [$body, ['x-svc-signature' => sign($body), 'x-svc-event' => $event, 'x-svc-delivery' => $deliveryId]];
}

/** A store in a new folder, with a clock the test moves, and a handler that records what it gets. */
function fixture(): object
{
    $fixture = new class () {
        public int $now = 1741964400;
        public array $handled = [];
        public FflkitDeliveryStore $store;
        public string $folder;

        public function receive(string $body, array $headers, ?Closure $handle = null): array
        {
            $handle ??= function (array $event, string $deliveryId): void {
                $this->handled[] = [$event['event'], $deliveryId];
            };
            [$status, $payload] = fflkit_receive($body, $headers, SECRET, $this->store, $handle);
            return [$status, $payload['outcome']];
        }
    };
    $fixture->folder = sys_get_temp_dir() . '/fflkit-php-receiver-test-' . bin2hex(random_bytes(6));
    register_shutdown_function(static function () use ($fixture): void {
        array_map('unlink', glob($fixture->folder . '/*') ?: []);
        @rmdir($fixture->folder);
    });
    $fixture->store = new FflkitDeliveryStore($fixture->folder, static fn (): int => $fixture->now);
    return $fixture;
}

// Errors the receiver logs for a failing handler go to the test's output, not to the terminal.
ini_set('error_log', sys_get_temp_dir() . '/fflkit-php-receiver-test.log');

test('a signed delivery is processed once', function (): void {
    $f = fixture();
    same([200, 'processed'], $f->receive(...delivery()));
    same([['receipt.created', '9b2f0c1e-0000-4000-8000-000000000001']], $f->handled);
});

test('a retry is a duplicate', function (): void {
    $f = fixture();
    $f->receive(...delivery());
    same([200, 'duplicate'], $f->receive(...delivery()));
    same(1, count($f->handled));
});

test('a replay under a new delivery id is a duplicate', function (): void {
    $f = fixture();
    [$body, $headers] = delivery();
    $f->receive($body, $headers);
    same([200, 'duplicate'], $f->receive($body, ['x-svc-delivery' => '9b2f0c1e-0000-4000-8000-00000000ffff'] + $headers));
    same(1, count($f->handled));
});

test('two events are both processed', function (): void {
    $f = fixture();
    $f->receive(...delivery(receiptId: 1));
    $f->receive(...delivery(receiptId: 2));
    same(2, count($f->handled));
});

test('signatures are refused with 401', function (): void {
    $f = fixture();
    [$body, $headers] = delivery();
    $without = $headers;
    unset($without['x-svc-signature']);
    same([401, 'missing_signature'], $f->receive($body, $without));
    same([401, 'malformed_signature'], $f->receive($body, ['x-svc-signature' => 'sha256=' . str_repeat('é', 32)] + $headers));
    same([401, 'malformed_signature'], $f->receive($body, ['x-svc-signature' => strtoupper(sign($body))] + $headers));
    same([401, 'signature_mismatch'], $f->receive($body, ['x-svc-signature' => sign($body, 'whsec_another000000000000000000000000000')] + $headers));
    same([401, 'signature_mismatch'], $f->receive(str_replace('PHP123', 'PHP124', $body), $headers));
    same([], $f->handled);
});

test('the whsec_ prefix is part of the key', function (): void {
    same(true, fflkit_signature_matches(SECRET, 'body', sign('body')));
    same(false, fflkit_signature_matches(SECRET, 'body', sign('body', substr(SECRET, strlen('whsec_')))));
});

test('malformed deliveries are refused with 400', function (): void {
    $f = fixture();
    [$body, $headers] = delivery();
    foreach (['not json', "\xff\xfe", '{"event": "receipt.created"}', '[1, 2]'] as $bad) {
        same([400, 'invalid_json'], $f->receive($bad, ['x-svc-signature' => sign($bad)] + $headers));
    }
    same([400, 'event_mismatch'], $f->receive($body, ['x-svc-event' => 'receipt.deleted'] + $headers));
    $withoutId = $headers;
    unset($withoutId['x-svc-delivery']);
    same([400, 'missing_delivery_id'], $f->receive($body, $withoutId));
    same([], $f->handled);
});

test('a body over 1 MiB is refused with 413', function (): void {
    $body = str_repeat(' ', FFLKIT_MAX_BODY_BYTES + 1);
    same([413, 'body_too_large'], fixture()->receive($body, ['x-svc-signature' => sign($body)]));
});

test('ping is answered without the handler', function (): void {
    $f = fixture();
    same([200, 'processed'], $f->receive(...delivery('ping')));
    same([], $f->handled);
});

test('an unknown event is acknowledged', function (): void {
    same([200, 'ignored'], fixture()->receive(...delivery('receipt.archived')));
});

test('a failed handler answers 500, and its retry is processed', function (): void {
    $f = fixture();
    $fail = static function (): void {
        throw new RuntimeException('database down');
    };
    [$status, $payload] = fflkit_receive(...[...delivery(), SECRET, $f->store, $fail]);
    same([500, 'handler_failed'], [$status, $payload['outcome']]);
    same(false, str_contains($payload['message'], 'database down'));
    same([200, 'processed'], $f->receive(...delivery()));
});

test('a delivery being processed answers 409', function (): void {
    $f = fixture();
    [$body, $headers] = delivery();
    same('claimed', $f->store->claim(hash('sha256', $body)));
    same([409, 'delivery_in_progress'], $f->receive($body, $headers));
});

test('a claim held past its lease is given up', function (): void {
    $f = fixture();
    same('claimed', $f->store->claim(str_repeat('a', 64)));
    $f->now += FFLKIT_CLAIM_LEASE_SECONDS - 1;
    same('in_progress', $f->store->claim(str_repeat('a', 64)));
    $f->now += 1;
    same('claimed', $f->store->claim(str_repeat('a', 64)));
});

test('a processed delivery is remembered for the retry schedule', function (): void {
    $f = fixture();
    $f->store->claim(str_repeat('b', 64));
    $f->store->commit(str_repeat('b', 64));
    $f->now += FFLKIT_KEEP_SECONDS - 1;
    same('processed', $f->store->claim(str_repeat('b', 64)));
    $f->now += 1;
    same('claimed', $f->store->claim(str_repeat('b', 64)));
});

test('release drops only a claim in progress', function (): void {
    $f = fixture();
    $f->store->claim(str_repeat('c', 64));
    $f->store->commit(str_repeat('c', 64));
    $f->store->release(str_repeat('c', 64));
    same('processed', $f->store->claim(str_repeat('c', 64)));
});

test('purge deletes what has expired and keeps the rest', function (): void {
    $f = fixture();
    $f->store->claim(str_repeat('d', 64));
    $f->store->commit(str_repeat('d', 64));
    $f->store->claim(str_repeat('e', 64));
    $f->now += FFLKIT_CLAIM_LEASE_SECONDS;
    $f->store->purge();
    same([str_repeat('d', 64) . '.delivery'], array_map('basename', glob($f->folder . '/*.delivery')));
    $f->now += FFLKIT_KEEP_SECONDS;
    $f->store->purge();
    same([], glob($f->folder . '/*.delivery'));
});

echo "$passed passed, $failed failed\n";
exit($failed === 0 ? 0 : 1);
