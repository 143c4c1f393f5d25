from celery import shared_task


@shared_task(name="smashup.ping")
def ping(payload: str = "pong") -> str:
    """A trivial task to prove the broker, a worker and the result backend are connected."""
    return payload
