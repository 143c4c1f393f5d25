from celery import shared_task


@shared_task(name="smashup.ping")
def ping(payload: str = "pong") -> str:
    """A trivial task to prove the broker, a worker and the result backend are connected."""
    return payload


@shared_task(name="smashup.relay", ignore_result=True)
def relay(name: str, args: list, eta: str, options: dict) -> bool:
    """A step towards a moment further ahead than a task may wait in a worker (schedule.send_at)."""
    from .schedule import relay_on

    return relay_on(name, args, eta, options)
