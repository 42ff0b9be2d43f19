from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.services import account_create
from accounts.throttling import LoginThrottle, SignUpThrottle, login_succeeded


class TokenObtainApi(ObtainAuthToken):
    """Exchange username and password for an API token (the log-in limit of ``accounts.throttling``)."""

    throttle_classes = [LoginThrottle]
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # ObtainAuthToken pins DRF's own JSON parser

    @extend_schema(
        request=inline_serializer(
            "TokenRequest", {"username": serializers.CharField(), "password": serializers.CharField()}
        ),
        responses={200: inline_serializer("TokenResponse", {"token": serializers.CharField()})},
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        login_succeeded(user.get_username())
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class AccountCreateApi(APIView):
    """Player sign-up; answers with the new account and a token to use right away."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [SignUpThrottle]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
        password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})
        email = serializers.EmailField(required=False, allow_blank=True, default="")

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        username = serializers.CharField()
        email = serializers.CharField(allow_blank=True, help_text="Empty when the player gave none.")
        token = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = account_create(**data.validated_data)
        token, _ = Token.objects.get_or_create(user=user)
        body = {"id": user.id, "username": user.username, "email": user.email, "token": token.key}
        return Response(self.OutputSerializer(body).data, status=status.HTTP_201_CREATED)
