from django.urls import reverse


def test_it_sends_an_anonymous_visitor_to_the_login(client, db):
    response = client.get(reverse("tables:table_list"))
    assert response.status_code == 302
    assert reverse("casino:login") in response["Location"]


def test_it_shows_the_table_list_to_a_dealer(client, dealer):
    client.force_login(dealer)
    assert client.get(reverse("tables:table_list")).status_code == 200
