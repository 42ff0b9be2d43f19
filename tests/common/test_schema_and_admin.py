import pytest


@pytest.mark.django_db
def test_openapi_schema_documents_auth_and_signup(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/v1/auth/token/" in paths
    assert "/api/v1/accounts/" in paths


@pytest.mark.django_db
def test_interactive_docs_and_admin_are_served(client):
    assert client.get("/api/docs/").status_code == 200
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert b"Django administration" in response.content
