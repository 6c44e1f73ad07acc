"""Reads users and organisations with the real huggingface_hub (HF_ENDPOINT), as JSON.

Called by test/people.test.ts with one group name; parameters come as JSON on stdin. It only calls the
client and records what it returned (or raised); the test asserts on it.
"""

import json
import sys

from huggingface_hub import HfApi

from common import attempt

params = json.loads(sys.stdin.read() or "{}")


def user_fields(user):
    return {
        "username": user.username,
        "fullname": user.fullname,
        "num_models": user.num_models,
        "orgs": [org.name for org in user.orgs],
    }


def group_people():
    api = HfApi(token=params.get("token") or False)
    return {
        "user": attempt(lambda: user_fields(api.get_user_overview(params["user"]))),
        "org": attempt(
            lambda: (
                lambda org: {
                    "name": org.name,
                    "fullname": org.fullname,
                    "num_users": org.num_users,
                    "num_models": org.num_models,
                }
            )(api.get_organization_overview(params["org"]))
        ),
        # paginate() follows the Link header: the hub is asked for pages of one member in the test.
        "members": attempt(lambda: [member.username for member in api.list_organization_members(params["org"])]),
        "missing_user": attempt(lambda: api.get_user_overview("nobody-here")),
        "missing_org": attempt(lambda: api.get_organization_overview("nobody-here")),
    }


if __name__ == "__main__":
    print(json.dumps(globals()[f"group_{sys.argv[1]}"]()))
