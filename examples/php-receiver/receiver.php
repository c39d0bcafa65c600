<?php
// A receiver of the A&D Logbook Service's webhooks in plain PHP, as a WooCommerce plugin or any PHP
// application would write it: the raw body read from php://input, X-SVC-Signature verified over it
// in constant time (hash_equals), each delivery processed once (deduplicated on the SHA-256 digest
// of the body: a retry carries the same bytes, and so does a delivery replayed under a new
// X-SVC-Delivery), and the answers the service expects: 2xx within 5 seconds, 401 to a missing or
// wrong signature, 500 when processing fails, so that the service retries.
//
//   FFLKIT_WEBHOOK_SECRET=whsec_... php -S 127.0.0.1:3000 receiver.php   # http://127.0.0.1:3000/webhooks
//
// In your application keep fflkit_receive() and FflkitDeliveryStore, call fflkit_receive() with the
// raw body and the request's headers, and send back the status and JSON body it returns. Replace
// fflkit_handle_event() with your own code. Requires PHP 8.1 or later, and no extension.

declare(strict_types=1);

const FFLKIT_SECRET_PREFIX = 'whsec_';
const FFLKIT_RECEIPT_EVENTS = ['receipt.created', 'receipt.updated', 'receipt.disposed', 'receipt.deleted'];
const FFLKIT_MAX_BODY_BYTES = 1024 * 1024;
// A claim whose request died (a crash mid-delivery) is given up after this: the service's next retry
// processes the delivery. Far longer than the 5 seconds the service waits for an answer.
const FFLKIT_CLAIM_LEASE_SECONDS = 300;
// A processed delivery is remembered for the service's whole retry schedule (99,360 s) and an hour.
const FFLKIT_KEEP_SECONDS = 102960;

/**
 * The deliveries seen, one file per delivery in a folder of the receiver's own, named by the
 * SHA-256 digest of the body and holding its state and when it was set, each read and written
 * under flock() so that concurrent requests (PHP-FPM workers) take turns. A delivery is claimed
 * before it is processed, committed once it is, and released when processing fails, so that the
 * service's retry is processed. In WordPress the same three steps fit a table with a unique key
 * on the digest.
 */
final class FflkitDeliveryStore
{
    /** @var Closure(): int */
    private Closure $now;

    public function __construct(private string $folder, ?Closure $now = null)
    {
        $this->now = $now ?? static fn (): int => time();
        if (!is_dir($folder) && !@mkdir($folder, 0700, true) && !is_dir($folder)) {
            throw new RuntimeException("cannot make the folder of the delivery store, $folder");
        }
    }

    /** 'claimed' (process it), 'processed' (a duplicate) or 'in_progress' (another request has it). */
    public function claim(string $digest): string
    {
        return $this->locked($this->file($digest), function ($handle): string {
            [$state, $age] = $this->read($handle);
            if ($state === 'processed' && $age < FFLKIT_KEEP_SECONDS) {
                return 'processed';
            }
            if ($state === 'processing' && $age < FFLKIT_CLAIM_LEASE_SECONDS) {
                return 'in_progress';
            }
            $this->write($handle, 'processing');
            return 'claimed';
        });
    }

    public function commit(string $digest): void
    {
        $this->locked($this->file($digest), fn ($handle) => $this->write($handle, 'processed'));
    }

    public function release(string $digest): void
    {
        $this->locked($this->file($digest), function ($handle): void {
            if ($this->read($handle)[0] === 'processing') {
                $this->write($handle, '');
            }
        });
    }

    /** Deletes the files of what has expired; run it now and then (a cron job, or one request in a hundred). */
    public function purge(): void
    {
        foreach (glob($this->folder . '/*.delivery') ?: [] as $file) {
            $this->locked($file, function ($handle) use ($file): void {
                [$state, $age] = $this->read($handle);
                if ($state === '' || $age >= ($state === 'processed' ? FFLKIT_KEEP_SECONDS : FFLKIT_CLAIM_LEASE_SECONDS)) {
                    unlink($file);
                }
            });
        }
    }

    private function file(string $digest): string
    {
        return $this->folder . '/' . $digest . '.delivery';
    }

    /**
     * Runs $work with the file open and locked. A file that purge() deleted while this waited for
     * the lock is opened again, so that no state is written to a deleted file.
     *
     * @template T
     * @param Closure(resource): T $work
     * @return T
     */
    private function locked(string $file, Closure $work): mixed
    {
        for (;;) {
            $handle = @fopen($file, 'c+');
            if ($handle === false || !flock($handle, LOCK_EX)) {
                throw new RuntimeException("cannot open and lock $file");
            }
            if (fstat($handle)['nlink'] > 0) {
                break;
            }
            fclose($handle);
        }
        try {
            return $work($handle);
        } finally {
            flock($handle, LOCK_UN);
            fclose($handle);
        }
    }

    /**
     * @param resource $handle
     * @return array{0: string, 1: int} the state ('' for none) and its age in seconds.
     */
    private function read($handle): array
    {
        rewind($handle);
        $parts = explode(' ', (string) stream_get_contents($handle), 2);
        return count($parts) === 2 ? [$parts[0], ($this->now)() - (int) $parts[1]] : ['', 0];
    }

    /** @param resource $handle */
    private function write($handle, string $state): void
    {
        ftruncate($handle, 0);
        rewind($handle);
        if ($state !== '' && (fwrite($handle, $state . ' ' . ($this->now)()) === false || !fflush($handle))) {
            throw new RuntimeException('cannot record the delivery');
        }
    }
}

/** Whether $signature is "sha256=" and the lowercase hex HMAC-SHA256 of $body, keyed with the whole secret. */
function fflkit_signature_matches(string $secret, string $body, string $signature): bool
{
    return hash_equals('sha256=' . hash_hmac('sha256', $body, $secret), $signature);
}

/** @return array{0: int, 1: array{message: string, outcome: string}} */
function fflkit_answer(int $status, string $outcome, string $message): array
{
    return [$status, ['message' => $message, 'outcome' => $outcome]];
}

/**
 * Answers one delivery. $body is the raw request body, exactly as received; $headers the request's
 * headers by lowercase name. Returns the status and the JSON body to send back.
 *
 * @param array<string, string> $headers
 * @param callable(array<string, mixed>, string): void $handle
 * @return array{0: int, 1: array{message: string, outcome: string}}
 */
function fflkit_receive(string $body, array $headers, string $secret, FflkitDeliveryStore $store, callable $handle): array
{
    if (strlen($body) > FFLKIT_MAX_BODY_BYTES) {
        return fflkit_answer(413, 'body_too_large', 'The body is larger than ' . FFLKIT_MAX_BODY_BYTES . ' bytes.');
    }
    $signature = $headers['x-svc-signature'] ?? null;
    if ($signature === null) {
        return fflkit_answer(401, 'missing_signature', 'The request has no X-SVC-Signature header.');
    }
    if (preg_match('/\Asha256=[0-9a-f]{64}\z/', $signature) !== 1) {
        return fflkit_answer(401, 'malformed_signature', 'X-SVC-Signature is not "sha256=" and 64 lowercase hex digits.');
    }
    if (!fflkit_signature_matches($secret, $body, $signature)) {
        return fflkit_answer(401, 'signature_mismatch', 'X-SVC-Signature does not match the body under the secret.');
    }
    $event = json_decode($body, true, 512, JSON_BIGINT_AS_STRING);
    if (
        !is_array($event) || array_is_list($event)
        || !is_string($event['event'] ?? null) || !is_string($event['timestamp'] ?? null)
        || !is_array($event['data'] ?? null)
    ) {
        return fflkit_answer(400, 'invalid_json', 'The signed body is not an event: {"event", "timestamp", "data"} in UTF-8 JSON.');
    }
    if (isset($headers['x-svc-event']) && $headers['x-svc-event'] !== $event['event']) {
        return fflkit_answer(400, 'event_mismatch', 'X-SVC-Event is not the event of the signed body.');
    }
    $deliveryId = $headers['x-svc-delivery'] ?? '';
    if ($deliveryId === '') {
        return fflkit_answer(400, 'missing_delivery_id', 'The request has no X-SVC-Delivery header.');
    }
    if ($event['event'] === 'ping') {
        return fflkit_answer(200, 'processed', 'Pong.');
    }
    if (!in_array($event['event'], FFLKIT_RECEIPT_EVENTS, true)) {
        return fflkit_answer(200, 'ignored', "No handler for {$event['event']}; the delivery is acknowledged.");
    }

    $digest = hash('sha256', $body);
    try {
        $claim = $store->claim($digest);
    } catch (Throwable $error) {
        error_log("delivery $deliveryId: the store failed: {$error->getMessage()}");
        return fflkit_answer(500, 'store_failed', 'The receiver could not record the delivery; the sender will retry it.');
    }
    if ($claim === 'processed') {
        return fflkit_answer(200, 'duplicate', 'Delivery already processed.');
    }
    if ($claim === 'in_progress') {
        return fflkit_answer(409, 'delivery_in_progress', 'The delivery is being processed by another request; retry later.');
    }
    try {
        $handle($event, $deliveryId);
    } catch (Throwable $error) {
        $store->release($digest);
        error_log("delivery $deliveryId ({$event['event']}) failed: {$error->getMessage()}");
        return fflkit_answer(500, 'handler_failed', 'The receiver failed to process the delivery; the sender will retry it.');
    }
    try {
        $store->commit($digest);
    } catch (Throwable $error) {
        // The event was processed: a 500 would have the service deliver it again.
        error_log("delivery $deliveryId: {$error->getMessage()}");
    }
    return fflkit_answer(200, 'processed', 'Delivery processed.');
}

/**
 * Your code, for receipt.created, .updated, .disposed and .deleted. Deliveries come in any order:
 * read the receipt's current state from the API (GET /receipts/{id}), or apply an event only when
 * it is newer than the one you applied, and keep this short (the service waits 5 seconds).
 *
 * @param array<string, mixed> $event
 */
function fflkit_handle_event(array $event, string $deliveryId): void
{
    $receipt = $event['data'];
    file_put_contents('php://stderr', sprintf(
        "%s receipt %s serial %s (delivery %s)\n",
        $event['event'],
        $receipt['id'] ?? '?',
        $receipt['serial_number'] ?? '?',
        $deliveryId,
    ));
}

/** Serves the request at hand: POST /webhooks is a delivery; anything else is refused. */
function fflkit_serve(): void
{
    $send = static function (array $answer, array $extraHeaders = []): void {
        [$status, $payload] = $answer;
        http_response_code($status);
        header('Content-Type: application/json; charset=utf-8');
        foreach ($extraHeaders as $line) {
            header($line);
        }
        echo json_encode($payload);
    };
    if (parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH) !== '/webhooks') {
        $send(fflkit_answer(404, 'not_found', 'Deliveries are received at /webhooks.'));
        return;
    }
    if (($_SERVER['REQUEST_METHOD'] ?? '') !== 'POST') {
        $send(fflkit_answer(405, 'method_not_allowed', 'Webhook deliveries are POST requests.'), ['Allow: POST']);
        return;
    }
    $secret = (string) getenv('FFLKIT_WEBHOOK_SECRET');
    if (!str_starts_with($secret, FFLKIT_SECRET_PREFIX) || $secret === FFLKIT_SECRET_PREFIX) {
        error_log("set FFLKIT_WEBHOOK_SECRET to the endpoint's signing secret, whsec_... with its prefix");
        $send(fflkit_answer(500, 'setup_error', 'The receiver has no signing secret; the sender will retry.'));
        return;
    }
    if ((int) ($_SERVER['CONTENT_LENGTH'] ?? 0) > FFLKIT_MAX_BODY_BYTES) {
        $send(fflkit_answer(413, 'body_too_large', 'The body is larger than ' . FFLKIT_MAX_BODY_BYTES . ' bytes.'));
        return;
    }
    // The raw body: never $_POST, nor a body decoded and encoded again, which the signature does not cover.
    $body = (string) file_get_contents('php://input');
    $headers = [];
    foreach (['x-svc-signature', 'x-svc-event', 'x-svc-delivery'] as $name) {
        $key = 'HTTP_' . strtoupper(str_replace('-', '_', $name));
        if (isset($_SERVER[$key])) {
            $headers[$name] = (string) $_SERVER[$key];
        }
    }
    $store = new FflkitDeliveryStore((string) (getenv('FFLKIT_DELIVERY_DIR') ?: sys_get_temp_dir() . '/fflkit-deliveries'));
    if (random_int(1, 100) === 1) {
        $store->purge();
    }
    $send(fflkit_receive($body, $headers, $secret, $store, 'fflkit_handle_event'));
}

// Served (php -S, PHP-FPM, Apache) it answers the request; from the command line (the tests) it only defines.
if (PHP_SAPI !== 'cli') {
    fflkit_serve();
}
